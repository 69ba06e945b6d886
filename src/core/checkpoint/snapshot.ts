import type { Stats } from 'node:fs';
import { statOrNull } from '../paths.ts';
import { basename, join } from 'node:path';
import { fileSig as sig, RACY_MS } from '../file-memo.ts';

/**
 * What a cached reading of a checkpoint depends on: its directory and the watched files that
 * existed. Creating, removing or renaming a file (every atomic write renames) changes the
 * directory; a rewrite in place changes the file's own inode, size or mtime.
 */
export type Snapshot = { dir: string; files: [path: string, sig: string][]; racy: boolean };

export function takeSnapshot(dir: string, dirStat: Stats, names: readonly string[]): Snapshot {
  const now = Date.now();
  let racy = now - dirStat.mtimeMs < RACY_MS;
  const files: [string, string][] = [];
  for (const name of names) {
    const path = join(dir, name);
    const st = statOrNull(path);
    if (!st) continue;
    files.push([path, sig(st)]);
    if (now - st.mtimeMs < RACY_MS) racy = true;
  }
  return { dir: sig(dirStat), files, racy };
}

/** True when nothing the snapshot depends on has changed: one stat per file it saw. */
export function isUnchanged(s: Snapshot, dirStat: Stats): boolean {
  if (s.racy || s.dir !== sig(dirStat)) return false;
  for (const [path, was] of s.files) {
    const st = statOrNull(path);
    if (!st || sig(st) !== was) return false;
  }
  return true;
}

/** Stop checking a file: what was read from the checkpoint does not depend on it. */
export function unwatch(s: Snapshot, name: string): void {
  s.files = s.files.filter(([path]) => basename(path) !== name);
}

/**
 * True when a checkpoint's nodes came whole from tree.json. nodes_tree.json then does not count
 * until tree.json is removed or damaged, which changes the directory or tree.json's own stat.
 */
export function treeJsonSuffices(dir: string, read: { file: string | null; problems: string[] }): boolean {
  const treeJson = join(dir, 'tree.json');
  return read.file === treeJson && !read.problems.some((p) => p.startsWith(`${treeJson}:`));
}
