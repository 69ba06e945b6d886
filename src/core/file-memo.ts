import type { Stats } from 'node:fs';
import { statOrNull } from './paths.ts';

/**
 * File clocks are coarse (a few ms): a change this soon after another may leave the same
 * timestamp, so what was read of a file changed this recently is not trusted on the next call.
 */
export const RACY_MS = 50;

/** What a file's cached reading depends on: a rewrite in place changes its size or mtime, a replacement its inode. */
export function fileSig(st: Stats): string {
  return `${st.ino}:${st.size}:${st.mtimeMs}`;
}

/**
 * `read` kept per file while the file stays as it was: a call costs one stat until the file
 * changes. At most `max` files are kept, the one read longest ago dropped first. A file that
 * does not exist, or a reading that throws, is never kept. What is returned is shared between
 * calls: callers must not change it.
 */
export function memoByFile<T>(read: (path: string) => T, max: number): (path: string) => T {
  const kept = new Map<string, { sig: string; value: T }>();
  return (path) => {
    const st = statOrNull(path);
    const hit = kept.get(path);
    kept.delete(path);
    if (!st) return read(path);
    const sig = fileSig(st);
    if (hit?.sig === sig) {
      kept.set(path, hit);
      return hit.value;
    }
    // the file's age when it was looked at, not after a long read: a rewrite racing the read must not be kept
    const seenAt = Date.now();
    const value = read(path);
    if (seenAt - st.mtimeMs >= RACY_MS) {
      kept.set(path, { sig, value });
      if (kept.size > max) kept.delete(kept.keys().next().value as string);
    }
    return value;
  };
}
