import { isAbsolute, resolve } from 'node:path';
import { InputError } from '../core/errors.ts';
import { resolveInside } from '../core/paths.ts';
import { printable } from '../core/text.ts';
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
