import { type Dirent, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { hashFileSync } from '../core/file-hash.ts';
import { isNodeMetaFile } from '../core/checkpoint/files-node.ts';
import { JOBS_DIR } from '../sandbox/job-state.ts';

export type FilesChanged = {
  added: { path: string; sha256: string }[];
  modified: { path: string; sha256_before: string; sha256_after: string }[];
  deleted: string[];
  inherited_unchanged: { path: string; sha256: string }[];
};

/** Directories that hold tools' output or caches, or the records of the jobs that ran (scripts, exit codes, logs), not a node's work. */
const SKIPPED_DIRS = new Set(['.git', '__pycache__', 'node_modules', 'build', 'dist', '.pytest_cache', '.mypy_cache', JOBS_DIR]);
/** Files the run writes into every work directory itself. */
export const RUN_ENV_FILE = '_run_env.json';

/**
 * The files of a work directory, by path relative to it (sorted). Directories that hold caches
 * and build output are skipped, and so are the run's own records (META files, logs,
 * node_report.json, _run_env.json), so a change to them never counts as the node's work.
 * Symbolic links are not followed. A missing directory has no files.
 */
export function listFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, rel: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name)) walk(join(dir, e.name), path);
      } else if (e.isFile() && !isNodeMetaFile(e.name) && e.name !== RUN_ENV_FILE) out.push(path);
    }
  };
  walk(root, '');
  return out;
}

/** The sha256 of every file listFiles finds; a file that vanishes meanwhile is left out. */
export function hashTree(root: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const path of listFiles(root)) {
    try {
      out.set(path, hashFileSync(join(root, path)).sha256);
    } catch {
      // vanished or unreadable while walking: not part of the comparison
    }
  }
  return out;
}

/** Outputs of a run that a child's work directory does not receive from its parent (the reference's list). */
const NOT_INHERITED = [
  /^results?\.csv$/,
  /^results_.*\.csv$/,
  /_results\.csv$/,
  /^metrics\.(csv|json)$/,
  /^run(_.*)?\.log$/,
  /\.run\.log$/,
  /^slurm-.*\.(out|err)$/,
  /^(stdout|stderr|out|err)\.txt$/,
  /\.metrics\.json$/,
];

export function isNotInherited(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return NOT_INHERITED.some((re) => re.test(name));
}

/** What a node changed in its work directory relative to its parent's. */
export function diffFiles(parentDir: string | null, childDir: string): FilesChanged {
  const before = parentDir === null ? new Map<string, string>() : hashTree(parentDir);
  const after = hashTree(childDir);
  const fc: FilesChanged = { added: [], modified: [], deleted: [], inherited_unchanged: [] };
  for (const [path, sha] of after) {
    const old = before.get(path);
    if (old === undefined) fc.added.push({ path, sha256: sha });
    else if (old !== sha) fc.modified.push({ path, sha256_before: old, sha256_after: sha });
    else fc.inherited_unchanged.push({ path, sha256: sha });
  }
  // outputs a child does not inherit are missing from it by design, not deleted by the node
  for (const path of before.keys()) if (!after.has(path) && !isNotInherited(path)) fc.deleted.push(path);
  return fc;
}

export function isSterile(fc: FilesChanged): boolean {
  return fc.added.length === 0 && fc.modified.length === 0 && fc.deleted.length === 0;
}
