import { existsSync, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { InputError } from '../errors.ts';
import { resolveInside, statOrNull } from '../paths.ts';

/**
 * Files only a run writes, whose presence makes a directory a checkpoint. An experiment.md alone
 * does not: a researcher's own project directory has one too, and delete must never take it.
 */
const MARKERS = ['tree.json', 'nodes_tree.json', 'launch_config.json', 'idea.json', '.svc_pid', '.ari_pid'];

export function isCheckpointDir(dir: string): boolean {
  if (MARKERS.some((m) => existsSync(join(dir, m)))) return true;
  try {
    return readdirSync(dir).some((n) => n.startsWith('node_') && existsSync(join(dir, n, 'tree.json')));
  } catch {
    return false;
  }
}

/**
 * A checkpoint named on the command line: a path (absolute, or relative to the working directory)
 * or an id inside the checkpoints directory. Refuses what does not exist or is not a checkpoint.
 */
export function findCheckpoint(arg: string, checkpointsRoot: string): string {
  if (arg.trim() === '') throw new InputError('no checkpoint given');
  const asPath = resolve(arg);
  const byId = !isAbsolute(arg) && !arg.includes('/') && existsSync(join(checkpointsRoot, arg)) ? resolveInside(checkpointsRoot, arg, 'checkpoint') : null;
  const dir = existsSync(asPath) ? asPath : byId;
  if (!dir) throw new InputError(`checkpoint '${arg}' does not exist`, `looked at ${asPath} and in ${checkpointsRoot}; see svc projects`);
  if (!statSync(dir).isDirectory()) throw new InputError(`${dir} is a file, not a checkpoint directory`);
  if (!isCheckpointDir(dir)) throw new InputError(`${dir} is not a checkpoint`, 'a checkpoint holds tree.json, idea.json or launch_config.json');
  return dir;
}

/** Checkpoint directories directly inside `root`, newest name first. */
export function listCheckpointDirs(root: string): string[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new InputError(`cannot read checkpoints directory ${root}: ${(err as Error).message}`);
  }
  return names
    .filter((n) => !n.startsWith('.'))
    .map((n) => join(root, n))
    .filter((d) => statOrNull(d)?.isDirectory() === true && isCheckpointDir(d))
    .sort()
    .reverse();
}
