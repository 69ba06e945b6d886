import { isAbsolute } from 'node:path';
import { Type as T } from '@sinclair/typebox';
import { envValue, envVar } from '../../core/config/env-vars.ts';
import { InputError } from '../../core/errors.ts';
import { resolveInside } from '../../core/paths.ts';
import { printable } from '../../core/text.ts';
import type { ToolContext } from '../tool.ts';

const DEFAULT_WORK_DIR = envVar('SVC_WORK_DIR')?.default ?? '/tmp/svc_work';

export const WorkDirParam = T.Optional(
  T.String({ description: `absolute directory that paths are relative to; default SVC_WORK_DIR, else ${DEFAULT_WORK_DIR}` }),
);

/**
 * A user-supplied path resolved inside the work directory (the one given, else SVC_WORK_DIR or its
 * default): the node's files are there, and nothing outside it may be read or written.
 */
export function pathInWorkDir(userPath: string, what: string, workDir: string | undefined, env: ToolContext['env']): string {
  const fromArg = workDir !== undefined && workDir !== '';
  const dir = fromArg ? workDir : (envValue(env, 'SVC_WORK_DIR') ?? DEFAULT_WORK_DIR);
  if (!isAbsolute(dir)) {
    throw new InputError(`${fromArg ? 'work_dir' : 'SVC_WORK_DIR'} '${printable(dir)}' is not an absolute path`, 'give an absolute directory');
  }
  if (userPath.trim() === '') throw new InputError(`${what} is empty`, 'give a file name relative to the work directory');
  return resolveInside(dir, userPath, what);
}
