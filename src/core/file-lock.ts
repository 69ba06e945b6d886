import { closeSync, openSync } from 'node:fs';
import { ConflictError } from './errors.ts';
import { logFor } from './log.ts';

/**
 * An exclusive advisory lock on a file (flock(2)), held by an open descriptor: the kernel drops it
 * when the process ends, however it ends, so a lock is never left stale and no process has to
 * decide that another is dead. Reached through bun:ffi, since neither Node nor Bun offers flock.
 */
export type FileLock = { release: () => void };

const LOCK_EX = 2;
const LOCK_NB = 4;

type Libc = { flock: (fd: number, op: number) => number; errno: () => number; wouldBlock: number };

let libc: Libc | null | undefined;

/** flock from the C library, or null where it cannot be loaded (another libc, another OS). */
function loadLibc(): Libc | null {
  if (libc !== undefined) return libc;
  libc = null;
  if (process.platform !== 'linux' && process.platform !== 'darwin') return libc;
  try {
    const { dlopen, FFIType, read } = require('bun:ffi') as typeof import('bun:ffi');
    const linux = process.platform === 'linux';
    const errnoName = linux ? '__errno_location' : '__error';
    const lib = dlopen(linux ? 'libc.so.6' : 'libc.dylib', {
      flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
      [errnoName]: { args: [], returns: FFIType.ptr },
    });
    const errnoAt = lib.symbols[errnoName] as () => number | null;
    libc = {
      flock: (fd, op) => lib.symbols.flock(fd, op) as number,
      errno: () => {
        const at = errnoAt();
        return at === null ? 0 : read.i32(at as never, 0);
      },
      wouldBlock: linux ? 11 : 35,
    };
  } catch {
    libc = null;
  }
  return libc;
}

/**
 * Takes the lock on `path` (created when missing) without waiting: the lock, 'busy' when another
 * holder has it, or 'unsupported' when this system or file system offers no flock (the caller
 * falls back to another way).
 */
export function tryLockFile(path: string): FileLock | 'busy' | 'unsupported' {
  const c = loadLibc();
  if (c === null) return 'unsupported';
  const fd = openSync(path, 'a', 0o644);
  if (c.flock(fd, LOCK_EX | LOCK_NB) === 0) {
    let open = true;
    return {
      release: () => {
        if (open) closeSync(fd);
        open = false;
      },
    };
  }
  const errno = c.errno();
  closeSync(fd);
  return errno === c.wouldBlock ? 'busy' : 'unsupported';
}

/**
 * Runs `fn` holding the lock on `path`, waiting up to `waitMs` for another holder to let go
 * (ConflictError after that). `fn` is synchronous, so callers in one process never interleave
 * inside it; the lock keeps other processes out. Where flock is unsupported, `fn` runs unlocked
 * after a warning.
 */
export function withFileLockSync<T>(path: string, fn: () => T, waitMs = 10_000): T {
  const until = Date.now() + waitMs;
  for (;;) {
    const lock = tryLockFile(path);
    if (lock === 'unsupported') {
      warnUnsupported(path);
      return fn();
    }
    if (lock !== 'busy') {
      try {
        return fn();
      } finally {
        lock.release();
      }
    }
    if (Date.now() >= until) throw new ConflictError(`${path} stayed locked by another process for ${Math.round(waitMs / 1000)} s`, 'try again once the other svc process is done');
    Bun.sleepSync(2);
  }
}

const warned = new Set<string>();
function warnUnsupported(path: string): void {
  if (warned.has(path)) return;
  warned.add(path);
  logFor('lock').warn(`cannot lock ${path} (no flock here): two svc processes writing it at once could lose a change`);
}
