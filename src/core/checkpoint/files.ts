import { type FileType, fileTypeOf } from './files-type.ts';
import { realOrSelf } from '../paths.ts';
import { listDir } from './files-walk.ts';

export type ListedFile = { path: string; size: number; type: FileType; mtime: number };
export type FileList = { files: ListedFile[]; truncated: boolean };

/** Enough for any real checkpoint; a runaway directory (a dataset unpacked into it) stops here. */
export const MAX_LISTED_FILES = 10_000;

/**
 * Every file of a checkpoint, recursively: a directory's files, then its subdirectories, names
 * sorted. Tooling directories, temp files and secrets are left out. `mtime` is in seconds since the epoch.
 */
export function listCheckpointFiles(root: string, cap = MAX_LISTED_FILES): FileList {
  const rootReal = realOrSelf(root);
  const files: ListedFile[] = [];
  const pending: { abs: string; rel: string }[] = [{ abs: root, rel: '' }];
  while (pending.length > 0) {
    const dir = pending.pop();
    if (!dir) break;
    const entries = listDir(rootReal, dir.abs, dir.rel);
    const subdirs: { abs: string; rel: string }[] = [];
    for (const e of entries) {
      if (e.kind === 'dir') {
        subdirs.push({ abs: e.abs, rel: e.rel });
        continue;
      }
      if (files.length >= cap) return { files, truncated: true };
      files.push({ path: e.rel, size: e.stat.size, type: fileTypeOf(e.abs), mtime: e.stat.mtimeMs / 1000 });
    }
    // reversed so that the stack pops them in name order
    pending.push(...subdirs.reverse());
  }
  return { files, truncated: false };
}
