/**
 * Paper directories deleted from the registry: moved under `<registry>/.trash/` by one rename while
 * the manifest is locked, and removed once the lock is released. A long recursive removal under
 * the lock would keep every other registry call (the dashboard's among them) waiting on it. What a
 * crash leaves in the trash is never listed, and is removed by the next delete.
 */
import { mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { oneLine } from '../core/errors.ts';
import { logFor } from '../core/log.ts';

const log = logFor('bench');
const TRASH = '.trash';

/** Moves `dir` into the registry's trash; false when there is no such directory. */
export function moveToTrash(registryDir: string, dir: string): boolean {
  const trash = join(registryDir, TRASH);
  // kept once made: removing it when empty would race with a delete renaming into it
  mkdirSync(trash, { recursive: true });
  try {
    renameSync(dir, join(trash, randomBytes(8).toString('hex')));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/** Removes what the trash holds; what cannot be removed now (another delete is removing it) is left for the next. */
export function emptyTrash(registryDir: string): void {
  const trash = join(registryDir, TRASH);
  let names: string[];
  try {
    names = readdirSync(trash);
  } catch {
    return;
  }
  for (const name of names) {
    try {
      rmSync(join(trash, name), { recursive: true, force: true });
    } catch (err) {
      log.warn(`${join(trash, name)} could not be removed yet: ${oneLine(err)}`);
    }
  }
}
