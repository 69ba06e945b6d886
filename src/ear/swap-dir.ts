import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive } from '../core/checkpoint/pid.ts';

/**
 * A directory of the checkpoint is made whole beside it, in `.<name>.<pid>.<random>.tmp`, then
 * swapped in: a reader never sees half of one, and a failure or a kill leaves the previous one.
 */
export function tempDirFor(checkpointDir: string, name: string): string {
  removeStaleTemps(checkpointDir, name);
  return join(checkpointDir, `.${name}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
}

/** Replace `target` by `fresh`: the old one is moved aside first and put back if the second rename fails. */
export function swapIn(fresh: string, target: string): void {
  if (!existsSync(target)) {
    renameSync(fresh, target);
    return;
  }
  const old = `${fresh}.old`;
  renameSync(target, old);
  try {
    renameSync(fresh, target);
  } catch (err) {
    renameSync(old, target);
    throw err;
  }
  rmSync(old, { recursive: true, force: true });
}

/** Temp directories of `name` left by a process that was killed: those whose process is gone. */
function removeStaleTemps(checkpointDir: string, name: string): void {
  const pattern = new RegExp(`^\\.${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(\\d+)\\.[a-z0-9]+\\.tmp(\\.old)?$`);
  for (const entry of readdirSync(checkpointDir)) {
    const m = pattern.exec(entry);
    if (!m || isAlive(Number(m[1]))) continue;
    rmSync(join(checkpointDir, entry), { recursive: true, force: true });
  }
}
