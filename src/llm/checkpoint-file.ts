import { join } from 'node:path';
import { InvalidRecordError } from '../core/errors.ts';
import { resolveInside, statOrNull } from '../core/paths.ts';

/**
 * A checkpoint file the model layer appends to or replaces (cost trace and summary, cassette),
 * checked before any call is made: a symlink leading out of the checkpoint is refused rather than
 * followed, so a copied or tampered checkpoint cannot make svc write elsewhere, and a directory in
 * its place is named rather than failing the first answered call.
 */
export function checkpointFile(checkpointDir: string, name: string): string {
  const path = join(checkpointDir, name);
  try {
    resolveInside(checkpointDir, name);
  } catch {
    throw new InvalidRecordError(`${path} is a symlink that leads out of the checkpoint`, 'remove it: svc writes its cost ledger and cassette inside the checkpoint only');
  }
  const st = statOrNull(path);
  if (st && !st.isFile()) throw new InvalidRecordError(`${path} is not a regular file`, 'move it away: svc keeps its cost ledger and cassette there');
  return path;
}
