import { linkSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic.ts';
import { ConflictError } from '../errors.ts';
import { type FileLock, tryLockFile } from '../file-lock.ts';
import { readTextOrNull } from '../paths.ts';

export const PID_FILE = '.svc_pid';
/** written by the reference implementation; read so its running checkpoints show as running */
const LEGACY_PID_FILE = '.ari_pid';

/** The PID recorded in a checkpoint, or null when none (empty, non-numeric or ≤ 0 count as none). */
export function readPid(dir: string): number | null {
  for (const name of [PID_FILE, LEGACY_PID_FILE]) {
    const text = readTextOrNull(join(dir, name))?.trim();
    if (text === undefined) continue;
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

/** A pid file other than a checkpoint's: its name in the directory, and the refusal naming its holder. */
export type PidFile = { name: string; busy: (dir: string, pid: number) => ConflictError };

const CHECKPOINT_PID: PidFile = {
  name: PID_FILE,
  busy: (dir, pid) => new ConflictError(`${dir} is being run by process ${pid}`, 'wait for it to end, or stop it first'),
};

/** PID files this process holds, with the lock that makes them its own (null: claimed by link). */
const held = new Map<string, FileLock | null>();

/**
 * Makes this process the one running `dir`, or throws ConflictError naming the process that is.
 * Where flock(2) works, the claim is a lock on `<pid file>.lock`, which the kernel drops when the
 * process ends however it ends, so a dead claim needs no clearing and racing claimers cannot
 * both win; the PID file then only says who holds it. A second claim from inside the holding
 * process is refused too.
 */
export function claimPid(dir: string, pidFile: PidFile = CHECKPOINT_PID): void {
  const file = join(dir, pidFile.name);
  if (held.has(file)) throw pidFile.busy(dir, process.pid);
  const lock = tryLockFile(`${file}.lock`);
  if (lock === 'busy') throw pidFile.busy(dir, holderOf(file));
  if (lock !== 'unsupported') {
    // a live process named by a PID file nobody locks ran before claims were locks: it keeps it
    const prior = pidIn(file);
    if (prior !== null && prior !== process.pid && isAlive(prior)) {
      lock.release();
      throw pidFile.busy(dir, prior);
    }
    try {
      writeFileAtomic(file, `${process.pid}\n`);
    } catch (err) {
      lock.release();
      throw err;
    }
    held.set(file, lock);
    return;
  }
  claimByLink(dir, pidFile);
}

/** The PID in a locked claim's file; the holder writes it just after locking, so wait that long. */
function holderOf(file: string): number {
  for (let i = 0; i < 200; i++) {
    const pid = pidIn(file);
    if (pid !== null && pid !== process.pid) return pid;
    Bun.sleepSync(5);
  }
  return pidIn(file) ?? 0;
}

/**
 * The claim where flock does not work (some network file systems): the PID file is created by
 * link(2), which fails when it exists, so of processes claiming at once one wins. A claim left by a
 * dead process is removed only by the holder of a takeover lock (itself made by link(2)), which
 * checks again under it that the claim is still the dead one: removing it without the lock, a
 * contender could remove the live claim another made in the meantime. A file naming this process's
 * PID was left by an earlier process given the same PID (a container's PID 1), and is taken over.
 */
export function claimByLink(dir: string, pidFile: PidFile = CHECKPOINT_PID): void {
  const file = join(dir, pidFile.name);
  if (held.has(file)) throw pidFile.busy(dir, process.pid);
  const mine = join(dir, `.${pidFile.name}.${process.pid}`);
  const takeover = join(dir, `.${pidFile.name}.takeover`);
  writeFileAtomic(mine, `${process.pid}\n`);
  try {
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        linkSync(mine, file);
        held.set(file, null);
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const holder = pidIn(file);
      if (holder === process.pid) {
        held.set(file, null);
        return;
      }
      if (holder !== null && isAlive(holder)) throw pidFile.busy(dir, holder);
      try {
        linkSync(mine, takeover);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const taker = pidIn(takeover);
        // a taker that died mid-takeover leaves its lock: it goes; a live one is waited for (and
        // one gone between the two reads is tried again)
        if (taker !== null && !isAlive(taker)) rmSync(takeover, { force: true });
        else if (taker !== null) Bun.sleepSync(10);
        continue;
      }
      try {
        const still = pidIn(file);
        if (still === null || (still !== process.pid && !isAlive(still))) rmSync(file, { force: true });
      } finally {
        unlinkSync(takeover);
      }
    }
    throw new ConflictError(`cannot claim ${dir}: other processes keep claiming it`, 'run one process at a time on it');
  } finally {
    unlinkSync(mine);
  }
}

/** Gives up this process's claim on `dir`; a claim another process holds is left alone. */
export function releasePid(dir: string, name = PID_FILE): void {
  const file = join(dir, name);
  if (!held.has(file)) return;
  if (pidIn(file) === process.pid) rmSync(file, { force: true });
  held.get(file)?.release();
  held.delete(file);
}

function pidIn(file: string): number | null {
  const text = readTextOrNull(file)?.trim() ?? '';
  return /^\d+$/.test(text) && Number(text) > 0 ? Number(text) : null;
}
