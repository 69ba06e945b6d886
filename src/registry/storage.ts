import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeJsonAtomic } from '../core/atomic.ts';
import { NotFoundError } from '../core/errors.ts';
import type { Visibility } from './visibility.ts';

export const BUNDLE_FILE = 'bundle.tar.gz';
export const META_FILE = 'meta.json';

/** meta.json of a stored bundle. */
export type ArtifactMeta = {
  id: string;
  visibility: Visibility;
  /** the user of the token that uploaded it */
  owner: string;
  created_at: string;
  /** SHA-256 (hex) of bundle.tar.gz */
  sha256: string;
  size: number;
  promoted_at: string | null;
};

/** The data root must exist: it is never created silently (a typo would start an empty registry). */
export function requireRoot(root: string): void {
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    throw new NotFoundError(`registry data root ${root} does not exist`, 'create it first, or give another with --data-dir or SVC_REGISTRY_DATA');
  }
}

/** An artifact id: the first 16 hex characters of the tarball's SHA-256. */
export const isArtifactId = (id: string): boolean => /^[0-9a-f]{16}$/.test(id);

/**
 * The registry's files under its data root: `artifacts/<id>/{bundle.tar.gz, manifest.lock, meta.json}`,
 * uploads in progress under `tmp/` (emptied at start: whatever is there was never finished).
 */
export class ArtifactStore {
  readonly artifacts: string;
  readonly tmp: string;

  constructor(readonly root: string) {
    requireRoot(root);
    this.artifacts = join(root, 'artifacts');
    this.tmp = join(root, 'tmp');
    mkdirSync(this.artifacts, { recursive: true });
    mkdirSync(this.tmp, { recursive: true });
  }

  /** Empties tmp/: the server calls it at start, when whatever is there is an upload never finished. */
  clearTemp(): void {
    rmSync(this.tmp, { recursive: true, force: true });
    mkdirSync(this.tmp, { recursive: true });
  }

  /** The directory of a bundle; `id` must have passed isArtifactId. */
  dir(id: string): string {
    if (!isArtifactId(id)) throw new Error(`not an artifact id: ${id}`);
    return join(this.artifacts, id);
  }

  file(id: string, name: string): string {
    return join(this.dir(id), name);
  }

  meta(id: string): ArtifactMeta | null {
    try {
      return JSON.parse(readFileSync(this.file(id, META_FILE), 'utf8')) as ArtifactMeta;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  saveMeta(meta: ArtifactMeta): void {
    writeJsonAtomic(this.file(meta.id, META_FILE), meta);
  }

  /** A fresh path under tmp/ for an upload in progress. */
  tempPath(prefix: string): string {
    return join(this.tmp, `${prefix}.${process.pid}.${crypto.randomUUID()}`);
  }

  /**
   * Moves a finished directory (bundle, manifest.lock, meta.json) into place as `artifacts/<id>`.
   * False when a bundle of that id got there first (the same bytes, uploaded at the same time).
   */
  install(stagingDir: string, id: string): boolean {
    try {
      renameSync(stagingDir, this.dir(id));
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOTEMPTY' || code === 'EEXIST') return false;
      throw err;
    }
  }

  /** Deletes a bundle: first moved out of artifacts/ (one atomic step), then removed. */
  remove(id: string): void {
    const gone = this.tempPath(`deleted-${id}`);
    renameSync(this.dir(id), gone);
    rmSync(gone, { recursive: true, force: true });
  }
}
