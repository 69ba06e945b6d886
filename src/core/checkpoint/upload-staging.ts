import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../errors.ts';
import { resolveInside } from '../paths.ts';
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
