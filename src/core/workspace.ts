import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type { Env } from './config/env-vars.ts';
import { InputError } from './errors.ts';
import { isWithin } from './paths.ts';

/** True inside the compiled binary, where modules live under the virtual /$bunfs root. */
export const isCompiled = (): boolean => Bun.main.startsWith('/$bunfs') || Bun.main.startsWith('B:\\~BUN');

/** Directory of the svc executable (the repository root when run from source). */
export function binaryDir(): string {
  return isCompiled() ? dirname(process.execPath) : resolve(import.meta.dir, '..', '..');
}

export function homeDir(env: Env): string {
  return env.HOME && env.HOME !== '' ? env.HOME : homedir();
}

/**
 * The project root ({{ari_root}}): SVC_ROOT, else the nearest ancestor of `cwd` holding a
 * workflow.yaml, a .svc directory or a workspace directory, else `cwd` itself. The home directory
 * and its ancestors are never found as a project by their markers: svc keeps `~/.svc` for itself,
 * and a stray marker there (or in `/`) must not make every directory below it one project whose
 * files the dashboard would serve.
 */
export function projectRoot(env: Env, cwd = process.cwd()): string {
  if (env.SVC_ROOT) return resolve(cwd, env.SVC_ROOT);
  const home = resolve(homeDir(env));
  for (let dir = resolve(cwd); !isWithin(dir, home); dir = dirname(dir)) {
    if (['workflow.yaml', '.svc', 'workspace'].some((m) => existsSync(join(dir, m)))) return dir;
    if (dirname(dir) === dir) break;
  }
  return resolve(cwd);
}

/**
 * Where checkpoints live: the parent of SVC_CHECKPOINT_DIR when that is set (it names one run),
 * else `<project root>/workspace/checkpoints`.
 */
export function checkpointsRoot(env: Env, cwd = process.cwd()): string {
  if (env.SVC_CHECKPOINT_DIR) return dirname(resolve(cwd, env.SVC_CHECKPOINT_DIR));
  return join(projectRoot(env, cwd), 'workspace', 'checkpoints');
}

/**
 * The workspace a checkpoint belongs to: the parent of its nearest `checkpoints` ancestor (not
 * the outermost: `/scratch/checkpoints/p/workspace/checkpoints/run` belongs to `.../p/workspace`),
 * else the checkpoint's parent directory.
 */
export function workspaceOf(checkpointDir: string): string {
  const parts = resolve(checkpointDir).split(sep);
  const i = parts.lastIndexOf('checkpoints');
  if (i > 0) return parts.slice(0, i).join(sep) || sep;
  return dirname(resolve(checkpointDir));
}

/** Per-node work directories of a run: `<workspace>/experiments/<run_id>`. */
export function experimentsDirOf(checkpointDir: string): string {
  return join(workspaceOf(checkpointDir), 'experiments', basename(resolve(checkpointDir)));
}

/** Trees of the operating system (Linux and macOS); `/var/tmp` below /var is a place for users. */
const SYSTEM_TREES = ['/bin', '/boot', '/dev', '/etc', '/lib', '/lib32', '/lib64', '/libx32', '/proc', '/run', '/sbin', '/sys', '/usr', '/var', '/System', '/Library', '/private/etc', '/private/var'];
const USER_TREES = ['/var/tmp', '/private/var/tmp', '/private/var/folders'];

/** `/` itself, or a directory of the operating system: no place for a workspace or `.svc`. */
export function isSystemDir(dir: string): boolean {
  const d = resolve(dir);
  if (d === sep) return true;
  return SYSTEM_TREES.some((t) => isWithin(t, d)) && !USER_TREES.some((t) => isWithin(t, d));
}

/**
 * Creates `dir` (and its missing parents) for svc's own files: a workspace, `.svc`, a memory
 * database. Where the first directory to create would sit in `/` or a system directory (svc run
 * from `/`, a home of `/`), nothing is created and the error says where to run instead.
 */
export function makeOwnDir(dir: string): void {
  let existing = resolve(dir);
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  if (existing !== resolve(dir) && isSystemDir(existing)) {
    const first = relative(existing, resolve(dir)).split(sep)[0] ?? '';
    throw new InputError(`svc will not create ${join(existing, first)}: ${existing} is a system directory`, 'run svc from your project directory, or point SVC_ROOT (and HOME) at one');
  }
  mkdirSync(dir, { recursive: true });
}
