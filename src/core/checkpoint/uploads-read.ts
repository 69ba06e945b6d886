import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { InputError, NotFoundError } from '../errors.ts';
import { resolveInside } from '../paths.ts';
import { printable } from '../text.ts';
import { regularFileStat, refuseSecret } from './files-path.ts';
import { listDir } from './files-walk.ts';
import { UPLOADS_DIR } from './uploads.ts';

export type UploadEntry = { name: string; size: number; modified: string };

/** More files than a listing is read for: the rest are counted, not listed. */
export const MAX_LISTED_UPLOADS = 1000;
const MAX_DEPTH = 8;

/**
 * The files a researcher gave the run: `<checkpoint>/uploads/`, sub-directories included, names
 * relative to it. Left out, as the dashboard leaves them out: secrets, hard links, links leading
 * out of uploads/, files mid-write. An uploads/ that is a link out of the checkpoint is refused.
 */
export function listUploads(checkpointDir: string): { files: UploadEntry[]; total: number; present: boolean } {
  const root = uploadsRoot(checkpointDir);
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) return { files: [], total: 0, present: false };
  const rootReal = realpathSync(root);
  const files: UploadEntry[] = [];
  let total = 0;
  const walk = (dirAbs: string, rel: string, depth: number) => {
    for (const e of listDir(rootReal, dirAbs, rel)) {
      if (e.kind === 'dir') {
        if (depth < MAX_DEPTH) walk(e.abs, e.rel, depth + 1);
        continue;
      }
      total++;
      if (files.length < MAX_LISTED_UPLOADS) files.push({ name: e.rel, size: e.stat.size, modified: e.stat.mtime.toISOString() });
    }
  };
  walk(rootReal, '', 0);
  return { files, total, present: true };
}

/**
 * The path of one uploaded file by the name listUploads gives it. `..`, absolute paths, links
 * leading out, secrets, hard links and directories are refused; a missing one is NotFoundError.
 */
export function uploadedFilePath(checkpointDir: string, name: string): { abs: string; size: number } {
  if (name.trim() === '') throw new InputError('no file name given', 'give a name that list_uploaded_files shows');
  if (isAbsolute(name)) throw new InputError(`'${printable(name)}' is an absolute path`, `give the name of a file in ${UPLOADS_DIR}/ as list_uploaded_files shows it`);
  const root = uploadsRoot(checkpointDir);
  const abs = resolveInside(root, name, 'uploaded file');
  refuseSecret(abs, name);
  const st = statSync(abs, { throwIfNoEntry: false });
  if (!st) throw new NotFoundError(`no uploaded file '${printable(name)}'`, 'list_uploaded_files shows the names there are');
  if (st.isDirectory()) throw new InputError(`'${printable(name)}' is a directory in ${UPLOADS_DIR}/`, 'give the name of a file in it, as list_uploaded_files shows it');
  return { abs, size: regularFileStat(abs, name).size };
}

/** `<checkpoint>/uploads`, refused when it is a link leading out of the checkpoint. */
function uploadsRoot(checkpointDir: string): string {
  return resolveInside(checkpointDir, join(UPLOADS_DIR), 'the uploads directory');
}
