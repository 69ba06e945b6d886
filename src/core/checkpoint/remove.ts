import { existsSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { InputError, SvcError } from '../errors.ts';
import { isWithin, resolveInside } from '../paths.ts';
import { experimentsDirOf, workspaceOf } from '../workspace.ts';
import { findCheckpoint } from './locate.ts';
import { runningPid } from './pid.ts';

export type DeletePlan = { checkpoint: string; experiments: string | null };

/**
 * What `delete` would remove, after every check: the checkpoint must lie inside the checkpoints
 * directory (never the directory itself), be a checkpoint, and not be running.
 */
export function planDelete(arg: string, checkpointsRoot: string): DeletePlan {
  const byId = join(checkpointsRoot, arg);
  const candidate = !arg.includes('/') && existsSync(byId) ? byId : resolve(arg);
  let inside: string;
  try {
    inside = resolveInside(checkpointsRoot, candidate, 'checkpoint');
  } catch {
    throw new InputError(`'${arg}' is outside the checkpoints directory ${checkpointsRoot}`, 'svc delete only removes checkpoints inside it');
  }
  if (resolve(inside) === resolve(checkpointsRoot)) {
    throw new InputError(`${inside} is the checkpoints directory itself`, 'name one checkpoint inside it');
  }
  const dir = findCheckpoint(inside, checkpointsRoot);
  const pid = runningPid(dir);
  if (pid !== null) throw new SvcError(`checkpoint ${basename(dir)} is running (pid ${pid})`, 'stop the run first');
  const experiments = experimentsDirOf(dir);
  const ownsExperiments = existsSync(experiments) && isWithin(workspaceOf(dir), experiments);
  return { checkpoint: dir, experiments: ownsExperiments ? experiments : null };
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
