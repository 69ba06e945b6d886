import { existsSync, statSync } from 'node:fs';
import { isCheckpointDir } from '../core/checkpoint/locate.ts';
import { InputError, NotFoundError } from '../core/errors.ts';
import { isSafeId, resolveInside } from '../core/paths.ts';

/**
 * The checkpoint of run `runId` in `checkpointsRoot`. An id that is no run id (a path, `..`, a
 * separator) is refused as bad input before anything is looked up; an unknown one is not found.
 */
export function runDirOf(checkpointsRoot: string, runId: string): string {
  if (!isSafeId(runId)) throw new InputError(`invalid run id '${String(runId).slice(0, 80)}'`, 'a run id is letters, digits, `.`, `_` and `-`, as in 20261122131500_my_run');
  if (!existsSync(checkpointsRoot)) throw new NotFoundError(`no run '${runId}': ${checkpointsRoot} does not exist yet`);
  const dir = resolveInside(checkpointsRoot, runId, 'run id');
  if (!existsSync(dir) || !statSync(dir).isDirectory() || !isCheckpointDir(dir)) throw new NotFoundError(`no run '${runId}' in ${checkpointsRoot}`);
  return dir;
}
