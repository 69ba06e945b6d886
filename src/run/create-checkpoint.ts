import { existsSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isAlive, readPid } from '../core/checkpoint/pid.ts';
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

/** Writes what a new checkpoint holds besides experiment.md, into the directory it is given. */
export type FillCheckpoint = (dir: string) => void;

/** Prefix of a checkpoint being put together; hidden, so no listing shows it half made. */
const STAGING = '.new-';

/**
 * Creates the checkpoint directory of a new run under `checkpointsRoot` with its experiment.md and
 * what `fill` writes: put together in a hidden directory beside it and renamed into place, so it
 * appears whole or not at all, however the process ends. Two runs started in the same second with
 * the same goal get `_2`, `_3`... so neither adopts the other's directory.
 */
export function createCheckpoint(checkpointsRoot: string, markdown: string, fill: FillCheckpoint = () => {}, now = new Date()): { dir: string; runId: string } {
  makeOwnDir(checkpointsRoot);
  clearDeadStaging(checkpointsRoot);
  const staging = stage(checkpointsRoot, markdown, fill);
  const base = newRunId(markdown, now);
  for (let n = 1; n <= 100; n++) {
    const runId = n === 1 ? base : `${base}_${n}`;
    const dir = join(checkpointsRoot, runId);
    if (existsSync(dir)) continue;
    try {
      renameSync(staging, dir);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' || code === 'ENOTEMPTY') continue; // another run took the name meanwhile
      rmSync(staging, { recursive: true, force: true });
      throw err;
    }
    return { dir, runId };
  }
  rmSync(staging, { recursive: true, force: true });
  throw new ConflictError(`could not find a free checkpoint name for ${base} in ${checkpointsRoot}`, 'remove old checkpoints with the same name');
}

/**
 * The checkpoint SVC_CHECKPOINT_DIR names: adopted when it exists (the dashboard prepared it with
 * experiment.md; what is missing is written into it), else created whole like any new one.
 */
export function namedCheckpoint(dir: string, markdown: string, fill: FillCheckpoint = () => {}): string {
  if (existsSync(dir)) {
    if (!existsSync(join(dir, 'experiment.md'))) writeFileAtomic(join(dir, 'experiment.md'), markdown);
    fill(dir);
    return dir;
  }
  makeOwnDir(dirname(dir));
  const staging = stage(dirname(dir), markdown, fill);
  try {
    renameSync(staging, dir);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
  return dir;
}

function stage(parent: string, markdown: string, fill: FillCheckpoint): string {
  const staging = mkdtempSync(join(parent, STAGING));
  try {
    writeFileAtomic(join(staging, 'experiment.md'), markdown);
    fill(staging);
    return staging;
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}

/** Removes checkpoints a killed process was putting together (its PID file names a dead process, or it has none and is an hour old). */
function clearDeadStaging(root: string): void {
  for (const name of readdirSync(root)) {
    if (!name.startsWith(STAGING)) continue;
    const dir = join(root, name);
    const pid = readPid(dir);
    const old = Date.now() - (statSync(dir, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 3_600_000;
    if (pid !== null ? !isAlive(pid) : old) rmSync(dir, { recursive: true, force: true });
  }
}
