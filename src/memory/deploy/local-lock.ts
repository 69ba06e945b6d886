import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive } from '../../core/checkpoint/pid.ts';
import { localDir } from './local-state.ts';
import { makeOwnDir } from '../../core/workspace.ts';
import { readTextOrNull } from '../../core/paths.ts';

/**
 * One start-local, stop-local or restart at a time per workspace. Two starts that overlap would
 * each launch a server on the same port: the one that lost the port exits, yet it may record
 * itself in the pid file while the winner runs on unrecorded, so that stop-local never stops it.
 * The lock file holds its owner's pid; a caller waits while the owner lives, and removes the lock
 * of an owner that died holding it.
 */
export async function withLocalLock<T>(workspace: string, work: () => Promise<T>): Promise<T> {
  const file = join(localDir(workspace), 'local-server.lock');
  makeOwnDir(localDir(workspace));
  while (!take(file)) await Bun.sleep(100);
  try {
    return await work();
  } finally {
    rmSync(file, { force: true });
  }
}

function take(file: string): boolean {
  try {
    writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const owner = ownerOf(file);
  // an owner that has not written its pid yet is alive: it is between creating the file and writing
  if (owner !== null && !isAlive(owner)) rmSync(file, { force: true });
  return false;
}

function ownerOf(file: string): number | null {
  const text = readTextOrNull(file)?.trim() ?? '';
  return /^\d+$/.test(text) ? Number(text) : null;
}
