import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../core/config/env-vars.ts';
import { lastLine, runCommand } from '../core/run-command.ts';
import { findBinary, PROBE_TIMEOUT_MS } from './detect.ts';

/** Where apptainer/singularity images pulled for a workspace are kept. */
export function containerCacheDir(workspaceRoot: string): string {
  return join(workspaceRoot, 'containers');
}

export type ImageFile = { name: string; path: string; bytes: number; modified: string };
export type StoreImage = { repository: string; tag: string; id: string; size: string; created: string };
/** The images of a docker or podman store, or why they cannot be listed. */
export type StoreListing = { images: StoreImage[] } | { error: string };

export type ImageListing = { cache_dir: string; files: ImageFile[]; docker?: StoreListing; podman?: StoreListing };

/** Image files (*.sif) in the workspace's container cache, plus the docker and podman stores where those are installed. */
export async function listImages(workspaceRoot: string, env: Env): Promise<ImageListing> {
  const dir = containerCacheDir(workspaceRoot);
  const listing: ImageListing = { cache_dir: dir, files: imageFiles(dir) };
  const [docker, podman] = await Promise.all([storeImages('docker', env), storeImages('podman', env)]);
  if (docker) listing.docker = docker;
  if (podman) listing.podman = podman;
  return listing;
}

function imageFiles(dir: string): ImageFile[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.sif'))
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      const st = statSync(path, { throwIfNoEntry: false });
      return st?.isFile() ? [{ name, path, bytes: st.size, modified: st.mtime.toISOString() }] : [];
    });
}

async function storeImages(runtime: 'docker' | 'podman', env: Env): Promise<StoreListing | null> {
  const bin = findBinary(runtime, env);
  if (bin === null) return null;
  const r = await runCommand([bin, 'images', '--format', '{{json .}}'], env, PROBE_TIMEOUT_MS);
  if (r.code !== 0 || r.timedOut) return { error: r.timedOut ? `${runtime} images gave no answer` : (lastLine(r.stderr) ?? `${runtime} images exited with ${r.code}`) };
  let rows: Record<string, unknown>[];
  try {
    rows = r.stdout
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  } catch {
    return { error: `${runtime} images printed something other than JSON lines` };
  }
  const images = rows.map((o) => ({ repository: str(o.Repository), tag: str(o.Tag), id: str(o.ID ?? o.Id), size: str(o.Size), created: str(o.CreatedAt ?? o.CreatedSince) }));
  return { images };
}

const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));
