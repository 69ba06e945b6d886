import { linkSync, readFileSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic.ts';
import { ConflictError } from '../errors.ts';

export const PID_FILE = '.svc_pid';
/** written by the reference implementation; read so its running checkpoints show as running */
const LEGACY_PID_FILE = '.ari_pid';

/** The PID recorded in a checkpoint, or null when none (empty, non-numeric or ≤ 0 count as none). */
export function readPid(dir: string): number | null {
  for (const name of [PID_FILE, LEGACY_PID_FILE]) {
    let text: string;
    try {
      text = readFileSync(join(dir, name), 'utf8').trim();
    } catch {
      continue;
    }
    const pid = /^\d+$/.test(text) ? Number(text) : 0;
    return pid > 0 ? pid : null;
  }
  return null;
}

/** A process we may not signal (EPERM) still exists, so it counts as alive. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function runningPid(dir: string): number | null {
  const pid = readPid(dir);
  return pid !== null && isAlive(pid) ? pid : null;
}

/**
 * Makes this process the one running `dir`, or throws ConflictError naming the process that is.
 * The PID file is created by link(2), which fails when it exists, so of processes claiming at
 * once exactly one wins; a claim left by a dead process is moved aside by rename(2) first, and
 * put back when what was moved turns out to be a live claim made in the meantime.
 */
export function claimPid(dir: string): void {
  const file = join(dir, PID_FILE);
  const mine = join(dir, `.${PID_FILE}.${process.pid}`);
  writeFileAtomic(mine, `${process.pid}\n`);
  try {
    for (let attempt = 0; attempt < 20; attempt++) {
      try {
        linkSync(mine, file);
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const holder = readPid(dir);
      if (holder === process.pid) return;
      if (holder !== null && isAlive(holder)) throw busy(dir, holder);
      const aside = join(dir, `.${PID_FILE}.stale.${process.pid}`);
      try {
        renameSync(file, aside);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // another contender moved it
        throw err;
      }
      const moved = pidIn(aside);
      if (moved !== null && moved !== holder && isAlive(moved)) {
        // a contender claimed between our read and our move: its claim goes back, and it runs
        try {
          linkSync(aside, file);
        } catch {
          // a third contender holds the file now; its claim stands
        }
        unlinkSync(aside);
        throw busy(dir, moved);
      }
      unlinkSync(aside);
    }
    throw new ConflictError(`cannot claim ${dir}: other processes keep claiming it`, 'run one svc run or svc resume per checkpoint');
  } finally {
    unlinkSync(mine);
  }
}

function pidIn(file: string): number | null {
  try {
    const text = readFileSync(file, 'utf8').trim();
    return /^\d+$/.test(text) && Number(text) > 0 ? Number(text) : null;
  } catch {
    return null;
  }
}

function busy(dir: string, pid: number): ConflictError {
  return new ConflictError(`${dir} is being run by process ${pid}`, 'wait for it to end, or stop it first');
}
