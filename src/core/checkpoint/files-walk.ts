import { type Dirent, lstatSync, readdirSync, realpathSync, type Stats, statSync } from 'node:fs';
import { join } from 'node:path';
import { isWithin } from '../paths.ts';
import { isSecretPath } from '../secret-files.ts';

export type DirEntry = { name: string; abs: string; rel: string; kind: 'file' | 'dir'; stat: Stats };

/** Directories that are tooling state, not results: never listed. */
const SKIPPED_DIRS = new Set(['.git', '__pycache__', 'node_modules']);

/** Hidden names of files that exist only mid-write: atomic-write temps, deletes in progress, editor swap and lock files. */
export function isTempName(name: string): boolean {
  if (!name.startsWith('.')) return false;
  return name.startsWith('.deleting-') || name.startsWith('.#') || /\.(tmp|swp|swo|swx)$/.test(name);
}

/**
 * The entries of one directory worth showing, sorted by name. A symlink is shown as the file it
 * points to only when that file lies inside the root; linked directories are not entered (a link
 * to an ancestor would loop). Devices, sockets and pipes are left out: reading one would block;
 * so are secret files and hard links, which are never served.
 */
export function listDir(rootReal: string, dirAbs: string, relDir: string, hideFile: (name: string) => boolean = () => false): DirEntry[] {
  let dirents: Dirent[];
  try {
    dirents = readdirSync(dirAbs, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: DirEntry[] = [];
  for (const d of dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const name = d.name;
    const rel = relDir === '' ? name : `${relDir}/${name}`;
    if (isTempName(name) || isSecretPath(rel)) continue;
    const abs = join(dirAbs, name);
    const stat = entryStat(rootReal, abs);
    if (!stat) continue;
    if (stat.isDirectory()) {
      if (!SKIPPED_DIRS.has(name)) out.push({ name, abs, rel, kind: 'dir', stat });
    } else if (stat.isFile() && stat.nlink === 1 && !hideFile(name)) {
      // a hard-linked file is not served (files-path.ts refuseHardLink), so it is not listed
      out.push({ name, abs, rel, kind: 'file', stat });
    }
  }
  return out;
}

/** lstat for plain entries; for a symlink, the stat of a target file inside the root, else null. */
function entryStat(rootReal: string, abs: string): Stats | null {
  try {
    const st = lstatSync(abs);
    if (!st.isSymbolicLink()) return st;
    if (!isWithin(rootReal, realpathSync(abs))) return null;
    const target = statSync(abs);
    return target.isFile() ? target : null;
  } catch {
    return null;
  }
}
