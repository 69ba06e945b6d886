import { cpSync, existsSync, lstatSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../errors.ts';
import { resolveInside, statOrNull } from '../paths.ts';
import { UPLOADS_DIR } from './uploads.ts';

/**
 * Files given to a run before it exists (the New experiment wizard) wait in
 * `<workspace>/staging/<id>/uploads/`; the launch that names `<id>` copies them into the new
 * checkpoint's uploads/, so the run's first node already has them.
 */
export const STAGING_DIR = 'staging';

/** A staging id: chosen by the client, so it names nothing but a directory of its own. */
const STAGING_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** The directory uploads staged under `id` are saved in (as a checkpoint keeps them: in its uploads/). */
export function stagingDir(workspaceRoot: string, id: string): string {
  if (!STAGING_ID.test(id)) throw new InputError(`staging '${id.slice(0, 80)}' is not a staging id`, 'use 8 to 64 letters, digits, _ or -');
  return resolveInside(workspaceRoot, join(STAGING_DIR, id), 'staging directory');
}

/** Refuses a launch naming a staging id nothing was uploaded under, before anything is created. */
export function requireStaged(workspaceRoot: string, id: string): string {
  const dir = stagingDir(workspaceRoot, id);
  if (!existsSync(join(dir, UPLOADS_DIR))) throw new InputError(`no files were uploaded under staging '${id}'`, 'upload with POST /api/upload?staging=<id> first, or launch without staging');
  return dir;
}

/**
 * Copies the staged uploads into the checkpoint's uploads/. The staging directory stays until the
 * run has started (clearStaged): a launch that fails keeps what the researcher uploaded.
 */
export function copyStagedUploads(staged: string, checkpointDir: string): void {
  cpSync(join(staged, UPLOADS_DIR), resolveInside(checkpointDir, UPLOADS_DIR, 'uploads directory'), { recursive: true });
}

export function clearStaged(staged: string): void {
  rmSync(staged, { recursive: true, force: true });
}

/** How long files staged for a launch that never came are kept: the wizard's draft lives only as long as its tab. */
export const STAGING_MAX_AGE_MS = 7 * 24 * 3600 * 1000;

/**
 * Removes the staging directories nothing was uploaded to or launched from for `maxAgeMs` (the
 * newer of the directory's and its uploads/' times), and only those: anything else under
 * staging/, a link included, is left as it is, and so is `keep` (the one being uploaded to). Returns the ids removed.
 */
export function sweepStaged(workspaceRoot: string, opts: { now?: number; maxAgeMs?: number; keep?: string } = {}): string[] {
  const { now = Date.now(), maxAgeMs = STAGING_MAX_AGE_MS } = opts;
  const root = join(workspaceRoot, STAGING_DIR);
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return removed;
  }
  for (const id of names) {
    if (!STAGING_ID.test(id) || id === opts.keep) continue;
    const dir = join(root, id);
    const st = lstatSync(dir, { throwIfNoEntry: false });
    if (!st?.isDirectory()) continue;
    const touched = Math.max(st.mtimeMs, statOrNull(join(dir, UPLOADS_DIR))?.mtimeMs ?? 0);
    if (now - touched < maxAgeMs) continue;
    rmSync(dir, { recursive: true, force: true });
    removed.push(id);
  }
  return removed;
}
