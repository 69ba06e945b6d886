import { mkdirSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { Type as T } from '@sinclair/typebox';
import { envValue } from '../core/config/env-vars.ts';
import { InputError, oneLine } from '../core/errors.ts';
import { resolveInside } from '../core/paths.ts';
import { printable } from '../core/text.ts';
import type { ToolContext } from '../mcp/tool.ts';

export const WorkDirParam = T.Optional(
  T.String({ description: 'absolute directory that file names are relative to; default SVC_WORK_DIR, else /tmp/svc_work; created if missing' }),
);

/** The directory a coding tool works in: the one given, else SVC_WORK_DIR or its default; created if missing. */
export function openWorkDir(given: string | undefined, env: ToolContext['env']): string {
  const fromArg = given !== undefined && given !== '';
  const dir = fromArg ? given : (envValue(env, 'SVC_WORK_DIR') ?? '/tmp/svc_work');
  const what = fromArg ? 'work_dir' : 'SVC_WORK_DIR';
  if (!isAbsolute(dir)) throw new InputError(`${what} '${printable(dir)}' is not an absolute path`, 'give an absolute directory');
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new InputError(`${what} '${printable(dir)}' cannot be used: ${oneLine(err)}`);
  }
  return dir;
}

/**
 * A file argument of a coding tool, inside the work directory: `..`, absolute paths elsewhere and
 * symlinks that lead out are refused, and so is an empty name, which would be the directory itself.
 */
export function fileInWorkDir(userPath: string, what: string, workDir: string | undefined, env: ToolContext['env']): { dir: string; path: string } {
  if (userPath.trim() === '') throw new InputError(`${what} is empty`, 'give a file name relative to work_dir');
  const dir = openWorkDir(workDir, env);
  const path = resolveInside(dir, userPath, what);
  checkLength(path, what);
  return { dir, path };
}

/** Linux's limits on one name in a path and on a whole path, in bytes. */
const NAME_MAX = 255;
const PATH_MAX = 4095;

/** A name the filesystem would refuse is named here, not in a system error quoting the whole path. */
function checkLength(path: string, what: string): void {
  const bytes = Buffer.byteLength(path);
  if (bytes > PATH_MAX) throw new InputError(`${what} is too long: ${bytes} bytes with work_dir, at most ${PATH_MAX}`, 'use shorter names');
  const long = path.split('/').find((name) => Buffer.byteLength(name) > NAME_MAX);
  if (long !== undefined) throw new InputError(`${what} has a name of ${Buffer.byteLength(long)} bytes ('${printable(long, 40)}'), at most ${NAME_MAX}`, 'use a shorter name');
}
