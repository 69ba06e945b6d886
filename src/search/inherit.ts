import { constants, copyFileSync, lstatSync, mkdirSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { isNotInherited } from '../agent/files-diff.ts';
import { isNodeMetaFile } from '../core/checkpoint/files-node.ts';
import { oneLine } from '../core/errors.ts';
import { isWithin, resolveInside } from '../core/paths.ts';
import { JOBS_DIR } from '../sandbox/job-state.ts';

export type WorkDirSources = {
  checkpointDir: string;
  /** the parent's work directory, null for the root */
  parentDir: string | null;
  /** the checkpoint's experiment.md */
  goal: string;
  log(msg: string): void;
};

/**
 * Builds a node's work directory from nothing (a resumed node's old one is wiped first): the
 * parent's files less run records and outputs, then the Provided Files of experiment.md, the
 * checkpoint's own files and its uploads. A later source never overwrites an earlier one, and
 * no symlink is followed out of the directory it is in.
 */
export function buildWorkDir(workDir: string, src: WorkDirSources): void {
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  // the parent's job records are its own: the child's report lists the jobs it ran itself; its
  // outputs too: a child makes its own, so inheriting them would pass stale numbers off as new
  if (src.parentDir) copyTree(src.parentDir, workDir, (name) => !isNodeMetaFile(name) && !isNotInherited(name) && name !== JOBS_DIR);
  for (const rel of providedFiles(src.goal)) {
    let from: string;
    try {
      from = resolveInside(src.checkpointDir, rel, 'provided file');
    } catch (err) {
      src.log(`work dir: skipping provided file ${rel}: ${oneLine(err)}`);
      continue;
    }
    const st = statSync(from, { throwIfNoEntry: false });
    if (st?.isFile()) copyNew(from, join(workDir, relative(src.checkpointDir, from)));
    else if (st?.isDirectory()) copyTree(from, join(workDir, relative(src.checkpointDir, from)), () => true);
  }
  for (const e of readdirSync(src.checkpointDir, { withFileTypes: true })) {
    // dot files include the temp files of atomic writes in progress
    if (e.isFile() && !e.name.startsWith('.') && !isNodeMetaFile(e.name)) copyNew(join(src.checkpointDir, e.name), join(workDir, e.name));
  }
  const uploads = join(src.checkpointDir, 'uploads');
  const uploadsSt = statSync(uploads, { throwIfNoEntry: false });
  if (uploadsSt?.isDirectory() && !isWithin(realpathSync(src.checkpointDir), realpathSync(uploads))) {
    src.log(`work dir: skipping uploads: ${uploads} leads out of the checkpoint`);
  } else if (uploadsSt?.isDirectory()) {
    copyTree(uploads, workDir, () => true);
    copyTree(uploads, join(workDir, 'uploads'), () => true);
  }
}

/**
 * Paths listed under a "Provided Files" heading of experiment.md: list items, a path in
 * backticks or the item's first word, until the next heading.
 */
export function providedFiles(goal: string): string[] {
  const out: string[] = [];
  let inSection = false;
  for (const line of goal.split('\n')) {
    const heading = /^\s*#+\s*(.*)$/.exec(line);
    if (heading) {
      inSection = /provided files/i.test(heading[1] ?? '');
      continue;
    }
    if (!inSection) continue;
    const item = /^\s*[-*+]\s+(.*)$/.exec(line)?.[1]?.trim();
    if (!item) continue;
    const path = /`([^`]+)`/.exec(item)?.[1] ?? item.split(/\s+/)[0]?.replace(/[:,]$/, '');
    if (path) out.push(path);
  }
  return out;
}

/** Copies files of `from` into `to` recursively; links are followed only when they resolve inside `from`. */
function copyTree(from: string, to: string, keep: (name: string) => boolean): void {
  const root = realpathSync(from);
  const walk = (dir: string, rel: string, seen: Set<string>) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (!keep(e.name)) continue;
      const path = join(dir, e.name);
      let real = path;
      if (e.isSymbolicLink()) {
        try {
          real = realpathSync(path);
        } catch {
          continue; // dangling
        }
        if (!isWithin(root, real)) continue;
      }
      const st = lstatSync(real);
      const relPath = join(rel, e.name);
      if (st.isDirectory()) {
        if (seen.has(real)) continue; // a link back up
        walk(real, relPath, new Set([...seen, real]));
      } else if (st.isFile()) copyNew(real, join(to, relPath));
    }
  };
  walk(root, '', new Set([root]));
}

function copyNew(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  try {
    copyFileSync(from, to, constants.COPYFILE_EXCL);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}
