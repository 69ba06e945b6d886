import { lstatSync, realpathSync, type Stats, unlinkSync } from 'node:fs';
import { basename } from 'node:path';
import { writeFileAtomic } from '../atomic.ts';
import { statOrNull } from '../paths.ts';
import { InputError, NotFoundError } from '../errors.ts';
import { checkpointFilePath, displayPath, realRelative, refuseSecret } from './files-path.ts';
import { decodeBase64 } from '../text.ts';

/** Records a run writes and reads back; a hand edit would corrupt the run, so the file API leaves them alone. */
const RUN_RECORDS = new Set([
  'tree.json',
  'nodes_tree.json',
  '.svc_pid',
  '.ari_pid',
  'cost_trace.jsonl',
  'cost_summary.json',
  'launch_config.json',
  'meta.json',
  'idea.json',
  'viz_access.jsonl',
  'results.json',
  'memory_backup.jsonl.gz',
]);

/** latexmk runs its rc files as Perl; the compile route ignores them, and none can be saved. */
const LATEXMK_RC = new Set(['latexmkrc', '.latexmkrc']);

/** True for a run record at the checkpoint root (the access logs and their rotations included). */
export function isRunRecord(relToRoot: string): boolean {
  if (relToRoot.includes('/')) return false;
  return RUN_RECORDS.has(relToRoot) || /^(memory|viz)_access.*\.jsonl$/.test(relToRoot);
}

/** The bytes of a save request: text as UTF-8, or base64 (padding optional, whitespace ignored). */
export function decodeContent(content: string, encoding = 'utf8'): Buffer {
  if (encoding === 'utf8') return Buffer.from(content, 'utf8');
  if (encoding !== 'base64') throw new InputError(`encoding must be 'utf8' or 'base64', got '${encoding}'`);
  return decodeBase64(content, 'content', "send the bytes base64-encoded, or text with encoding 'utf8'");
}

/**
 * Write a file of a checkpoint, atomically, creating its parent directories inside it. Writing
 * through a link inside the checkpoint changes the file it points to, so the record check looks there.
 */
export function saveCheckpointFile(root: string, rel: string, data: Uint8Array): { path: string; size: number } {
  const abs = editableTarget(root, rel, true);
  const existing = statOrNull(abs);
  if (existing?.isDirectory()) throw new InputError(`'${rel}' is a directory`, 'give the path of a file');
  if (existing && !existing.isFile()) throw new InputError(`'${rel}' is not a regular file`);
  const target = existing ? realpathSync(abs) : abs;
  try {
    writeFileAtomic(target, data);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR' || code === 'EEXIST') throw new InputError(`cannot create '${rel}': part of its directory path is a file`);
    throw err;
  }
  return { path: displayPath(root, abs), size: data.length };
}

/** Delete one file (or link) of a checkpoint; directories are refused. */
export function deleteCheckpointFile(root: string, rel: string): { path: string } {
  const abs = editableTarget(root, rel, false);
  let st: Stats;
  try {
    st = lstatSync(abs);
  } catch {
    throw new NotFoundError(`no file '${rel}' in this checkpoint`);
  }
  if (st.isDirectory()) throw new InputError(`'${rel}' is a directory`, 'only single files can be deleted here');
  unlinkSync(abs);
  return { path: displayPath(root, abs) };
}

function editableTarget(root: string, rel: string, followLast: boolean): string {
  const abs = checkpointFilePath(root, rel);
  refuseSecret(abs, rel);
  if (isRunRecord(realRelative(root, abs, followLast))) {
    throw new InputError(`'${rel}' is a run record that svc writes itself`, 'it cannot be changed or deleted through the file API');
  }
  if (LATEXMK_RC.has(basename(abs))) throw new InputError(`'${rel}' would be run as code by latexmk`, 'LaTeX options go in the document');
  return abs;
}

