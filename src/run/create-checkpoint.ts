import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../core/atomic.ts';
import { ConflictError } from '../core/errors.ts';
import { makeOwnDir } from '../core/workspace.ts';

/** `YYYYMMDDHHMMSS` in UTC. */
export function runStamp(now: Date): string {
  return now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/**
 * A run id slug from the goal: its first line that is not a heading (else the first heading),
 * lower-cased, runs of other characters turned into `_`, at most 5 words and 60 characters.
 */
export function goalSlug(markdown: string): string {
  const lines = markdown.split('\n').map((l) => l.trim()).filter(Boolean);
  const line = lines.find((l) => !l.startsWith('#')) ?? lines[0] ?? '';
  const words = line
    .replace(/^#+\s*/, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 5);
  return words.join('_').slice(0, 60).replace(/_+$/, '') || 'experiment';
}

/** `YYYYMMDDHHMMSS_<slug>`: the id of a new run. */
export function newRunId(markdown: string, now = new Date()): string {
  return `${runStamp(now)}_${goalSlug(markdown)}`;
}

/**
 * Creates the checkpoint directory of a new run under `checkpointsRoot` with its experiment.md.
 * Two runs started in the same second with the same goal get `_2`, `_3`... so neither adopts the
 * other's directory.
 */
export function createCheckpoint(checkpointsRoot: string, markdown: string, now = new Date()): { dir: string; runId: string } {
  makeOwnDir(checkpointsRoot);
  const base = newRunId(markdown, now);
  for (let n = 1; n <= 100; n++) {
    const runId = n === 1 ? base : `${base}_${n}`;
    const dir = join(checkpointsRoot, runId);
    try {
      mkdirSync(dir); // not recursive: fails when another run took the name
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw err;
    }
    writeFileAtomic(join(dir, 'experiment.md'), markdown);
    return { dir, runId };
  }
  throw new ConflictError(`could not find a free checkpoint name for ${base} in ${checkpointsRoot}`, 'remove old checkpoints with the same name');
}

/**
 * The checkpoint SVC_CHECKPOINT_DIR names: adopted when it holds experiment.md (the dashboard
 * prepared it), created with the experiment otherwise.
 */
export function namedCheckpoint(dir: string, markdown: string): string {
  makeOwnDir(dir);
  if (!existsSync(join(dir, 'experiment.md'))) writeFileAtomic(join(dir, 'experiment.md'), markdown);
  return dir;
}
