import { readdirSync } from 'node:fs';
import { isNotInherited, listFiles } from '../agent/files-diff.ts';

/**
 * The code of a node: the files of its work directory, less what the run put there (its records,
 * logs, caches, copies of the checkpoint's own files) and what running produced (results, metrics
 * and log outputs). Paths relative to the work directory, sorted.
 */
export function codeFiles(workDir: string, checkpointDir: string): string[] {
  const copies = new Set(readdirSync(checkpointDir, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name));
  return listFiles(workDir).filter((path) => !isNotInherited(path) && !(!path.includes('/') && copies.has(path)));
}
