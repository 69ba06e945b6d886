import { lstatSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic.ts';
import { ConflictError, InputError, NotFoundError, TooLargeError } from '../errors.ts';
import { resolveInside } from '../paths.ts';
import { printable } from '../text.ts';

/** Where a checkpoint keeps the files a researcher gave it; every node's work dir gets a copy. */
export const UPLOADS_DIR = 'uploads';

/** More files than a researcher gives a run at once; a request of thousands only fills the directory. */
export const MAX_UPLOAD_FILES = 1000;

/** Leaves room below the 255-byte name limit for the temp name of an atomic write. */
const MAX_NAME_BYTES = 200;

export type UploadedFile = { name: string; data: Blob };
export type SavedUpload = { name: string; path: string; size: number };

/**
 * The name an uploaded file is stored under: its base name (browsers may send a whole path),
 * without control characters, leading dots or `..`, at most 200 characters and bytes.
 * Nothing usable left is an InputError.
 */
export function sanitizeUploadName(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? '';
  let name = base.replace(/[\u0000-\u001f\u007f]/g, '').replace(/\.{2,}/g, '.').trim().replace(/^\.+/, '').trim();
  if ([...name].length > MAX_NAME_BYTES || Buffer.byteLength(name) > MAX_NAME_BYTES) name = truncateKeepingExtension(name);
  if (name === '') throw new InputError(`'${printable(raw)}' is not a usable file name`, 'give the file a name made of ordinary characters');
  return name;
}

/**
 * Saves files into `<checkpoint>/uploads/`, replacing files of the same name. Every name and size
 * is checked before anything is written, so a refused request leaves uploads/ as it was.
 */
export async function saveUploads(checkpointDir: string, files: UploadedFile[], maxFileBytes: number): Promise<SavedUpload[]> {
  if (files.length === 0) throw new InputError('no file in the upload', 'send multipart/form-data with at least one file field');
  if (files.length > MAX_UPLOAD_FILES) throw new TooLargeError(`the upload has ${files.length} files; one upload takes at most ${MAX_UPLOAD_FILES}`, 'upload them in several requests, or as one archive');
  const dir = statSync(resolveInside(checkpointDir, UPLOADS_DIR, 'uploads directory'), { throwIfNoEntry: false });
  if (dir && !dir.isDirectory()) throw new ConflictError(`${UPLOADS_DIR} in ${checkpointDir} is not a directory`, 'move that file away first');
  const planned = new Map<string, { target: string; data: Blob }>();
  for (const f of files) {
    const name = sanitizeUploadName(f.name);
    if (f.data.size > maxFileBytes) {
      throw new TooLargeError(`${name} is ${f.data.size} bytes; an uploaded file is at most ${maxFileBytes} bytes`);
    }
    if (planned.has(name)) throw new InputError(`two files in the upload are named ${name}`, 'give each file its own name');
    const target = uploadPath(checkpointDir, name);
    if (lstatSync(target, { throwIfNoEntry: false })?.isDirectory()) throw new ConflictError(`${UPLOADS_DIR}/${name} is a directory`, 'upload under another name');
    planned.set(name, { target, data: f.data });
  }
  const saved: SavedUpload[] = [];
  for (const [name, { target, data }] of planned) {
    writeFileAtomic(target, new Uint8Array(await data.arrayBuffer()));
    saved.push({ name, path: `${UPLOADS_DIR}/${name}`, size: data.size });
  }
  return saved;
}

/**
 * Removes `uploads/<name>`. The name must be one saveUploads could have produced: anything it
 * would have changed (a path, `..`, a NUL) is refused rather than guessed at.
 */
export function deleteUpload(checkpointDir: string, name: string): { name: string; path: string } {
  let clean: string | null;
  try {
    clean = sanitizeUploadName(name);
  } catch {
    clean = null;
  }
  if (clean !== name) throw new InputError(`'${printable(name)}' is not a file name in ${UPLOADS_DIR}/`, 'give the name the upload answered with, without directories');
  const target = uploadPath(checkpointDir, name);
  const st = lstatSync(target, { throwIfNoEntry: false });
  if (!st) throw new NotFoundError(`${UPLOADS_DIR}/${name} does not exist`);
  if (st.isDirectory()) throw new ConflictError(`${UPLOADS_DIR}/${name} is a directory; only uploaded files can be deleted`);
  // a symlink is removed itself, never what it points at
  unlinkSync(target);
  return { name, path: `${UPLOADS_DIR}/${name}` };
}

/** uploads/<name>, refused when uploads/ is a symlink leading out of the checkpoint. */
function uploadPath(checkpointDir: string, name: string): string {
  return resolveInside(checkpointDir, join(UPLOADS_DIR, name), 'upload');
}

/** Cuts a long name to the byte limit, keeping a short extension so the file type survives. */
function truncateKeepingExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
  let stem = [...name.slice(0, name.length - ext.length)];
  while (stem.length > 0 && (stem.length + [...ext].length > MAX_NAME_BYTES || Buffer.byteLength(stem.join('') + ext) > MAX_NAME_BYTES)) stem = stem.slice(0, -1);
  return (stem.join('') + ext).trim();
}
