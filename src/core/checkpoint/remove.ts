import { lstatSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { ConflictError, InputError } from '../errors.ts';
import { exists, resolveInside } from '../paths.ts';
import { experimentsDirOf } from '../workspace.ts';
import { findCheckpoint } from './locate.ts';
import { runningPid } from './pid.ts';

export type DeletePlan = { checkpoint: string; experiments: string | null };

/**
 * What `delete` would remove, after every check: the checkpoint must be a real directory directly
 * inside the checkpoints directory, be a checkpoint, and not be running.
 */
export function planDelete(arg: string, checkpointsRoot: string): DeletePlan {
  const name = arg.replace(/\/+$/, '');
  if (name.trim() === '') throw new InputError('no checkpoint given', 'name a checkpoint id or directory');
  const byId = join(checkpointsRoot, name);
  const candidate = !name.includes('/') && exists(byId) ? byId : resolve(name);
  if (!exists(candidate)) throw new InputError(`checkpoint '${arg}' does not exist`, `see svc projects --checkpoints ${checkpointsRoot}`);
  let inside: string;
  try {
    inside = resolveInside(checkpointsRoot, candidate, 'checkpoint');
  } catch {
    throw new InputError(`'${arg}' is outside the checkpoints directory ${checkpointsRoot}`, 'svc delete only removes checkpoints inside it');
  }
  if (resolve(inside) === resolve(checkpointsRoot)) {
    throw new InputError(`${inside} is the checkpoints directory itself`, 'name one checkpoint inside it');
  }
  if (dirname(inside) !== resolve(checkpointsRoot)) {
    throw new InputError(`${inside} is not directly in the checkpoints directory ${checkpointsRoot}`, 'name a checkpoint, not a directory inside one');
  }
  if (lstatSync(inside).isSymbolicLink()) throw new InputError(`${inside} is a symlink`, 'delete the checkpoint it points to');
  const dir = findCheckpoint(inside, checkpointsRoot);
  const pid = runningPid(dir);
  if (pid !== null) throw new ConflictError(`checkpoint ${basename(dir)} is running (pid ${pid})`, 'stop the run first');
  const experiments = experimentsDirOf(dir);
  return { checkpoint: dir, experiments: exists(experiments) ? experiments : null };
}

/**
 * Remove a planned checkpoint. Each directory is first renamed to a hidden name (atomic), so a crash
 * part-way never leaves a half-deleted checkpoint that still lists as one.
 */
export function executeDelete(plan: DeletePlan): void {
  for (const dir of [plan.checkpoint, plan.experiments]) {
    if (!dir) continue;
    const doomed = join(dirname(dir), `.deleting-${basename(dir)}-${process.pid}`);
    renameSync(dir, doomed);
    rmSync(doomed, { recursive: true, force: true });
  }
}
