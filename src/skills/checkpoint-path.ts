import { isAbsolute, resolve } from 'node:path';
import { envValue } from '../core/config/env-vars.ts';
import { InputError, NotFoundError } from '../core/errors.ts';
import { resolveInside, statOrNull } from '../core/paths.ts';
import { printable } from '../core/text.ts';
import { checkpointsRoot } from '../core/workspace.ts';
import type { ToolContext } from '../mcp/tool.ts';

/**
 * A file or directory argument of a post-search tool: inside the run's checkpoint
 * (SVC_CHECKPOINT_DIR), relative to it or absolute, where the pipeline keeps the paper and its
 * data; the model that may name these paths cannot reach outside it. Without a checkpoint (a
 * tool served to another client), any absolute path.
 */
export function checkpointPath(given: string, what: string, env: ToolContext['env']): string {
  if (given.trim() === '' || given.includes('\0')) throw new InputError(`${what} is empty`, 'give a path');
  const checkpoint = env.SVC_CHECKPOINT_DIR;
  if (checkpoint) return resolveInside(checkpoint, given, what);
  if (isAbsolute(given)) return resolve(given);
  throw new InputError(`${what} '${printable(given)}' is relative and SVC_CHECKPOINT_DIR is not set`, 'give an absolute path');
}

/**
 * A tool's checkpoint_dir argument: a run's checkpoint inside the checkpoints directory
 * (SVC_CHECKPOINT_DIR's parent, else the project's), never that directory itself, so a caller
 * cannot point a tool at any directory; SVC_CHECKPOINT_DIR when it is left out.
 */
export function checkpointDirArg(given: string | undefined, env: ToolContext['env']): string {
  const root = checkpointsRoot(env);
  const dir = given?.trim() ? resolveInside(root, given, 'checkpoint_dir') : envValue(env, 'SVC_CHECKPOINT_DIR');
  // the directory of every run is none of them: a path inside it could reach another run's files
  if (given?.trim() && dir === resolve(root)) throw new InputError(`checkpoint_dir '${printable(given)}' is the checkpoints directory, not a run's checkpoint`, 'give the run checkpoint directory');
  if (dir === null) throw new InputError('no checkpoint: checkpoint_dir is not given and SVC_CHECKPOINT_DIR is not set', 'give checkpoint_dir, the run checkpoint directory');
  if (!statOrNull(dir)?.isDirectory()) throw new NotFoundError(`checkpoint_dir ${printable(dir)} is not a directory`, 'give an existing run checkpoint');
  return dir;
}
