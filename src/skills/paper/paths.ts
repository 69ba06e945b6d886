import { isAbsolute, join, resolve } from 'node:path';
import { InputError } from '../../core/errors.ts';
import { printable } from '../../core/text.ts';
import type { ToolContext } from '../../mcp/tool.ts';

/**
 * A file or directory argument of a paper tool: absolute, or relative to the run's checkpoint
 * (SVC_CHECKPOINT_DIR), where the pipeline keeps the paper.
 */
export function paperPath(given: string, what: string, env: ToolContext['env']): string {
  if (given.trim() === '' || given.includes('\0')) throw new InputError(`${what} is empty`, 'give a path');
  if (isAbsolute(given)) return resolve(given);
  const checkpoint = env.SVC_CHECKPOINT_DIR;
  if (!checkpoint) throw new InputError(`${what} '${printable(given)}' is relative and SVC_CHECKPOINT_DIR is not set`, 'give an absolute path');
  return resolve(join(checkpoint, given));
}
