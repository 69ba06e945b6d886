import { closeSync, copyFileSync, fsyncSync, mkdirSync, openSync, readSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, isAbsolute, join } from 'node:path';
import { diskError, InputError, NotFoundError } from '../core/errors.ts';
import { printable } from '../core/text.ts';

/** The files of a paper in the registry, by the import field that names each. */
export const PDF_FILES = { pdf_path: 'paper.pdf', ad_pdf_path: 'ad.pdf', ae_pdf_path: 'ae.pdf' } as const;
export type PdfField = keyof typeof PDF_FILES;
export type PdfName = (typeof PDF_FILES)[PdfField];

const MAGIC = '%PDF-';

/** True when the bytes start as every PDF does. */
export function isPdfBytes(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, MAGIC.length)).toString('latin1') === MAGIC;
}

/**
 * `path` when it is an absolute path to a readable PDF file (by its `%PDF-` start); else an error
 * naming `what` (the import field) and the path. Nothing is read past the first five bytes.
 */
export function checkPdf(path: string, what: string): string {
  if (!isAbsolute(path)) throw new InputError(`${what} must be an absolute path, got '${printable(path)}'`, 'give the full path of the PDF');
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) throw new NotFoundError(`${what} ${path} does not exist`, 'give the path of an existing PDF file');
  if (!st.isFile()) throw new InputError(`${what} ${path} is not a file`, 'give the path of a PDF file');
  const head = Buffer.alloc(MAGIC.length);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, head, 0, MAGIC.length, 0);
  } finally {
    closeSync(fd);
  }
  if (!isPdfBytes(head)) throw new InputError(`${what} ${path} is not a PDF (it does not start with %PDF-)`, 'give the path of a PDF file');
  return path;
}

/** A PDF to install: a file to copy, or bytes already fetched. */
export type PdfSource = { name: PdfName; from: string | Uint8Array };

/**
 * Copies the PDFs into a new directory under `<registry>/.staging/`, each fsynced, and returns it:
 * what installPdfs then moves in by rename, so a paper's directory never holds a half-copied file.
 */
export function stagePdfs(registryDir: string, pdfs: PdfSource[]): string {
  const staging = join(registryDir, '.staging', randomBytes(8).toString('hex'));
  mkdirSync(staging, { recursive: true });
  try {
    for (const { name, from } of pdfs) {
      const target = join(staging, name);
      if (typeof from === 'string') copyFileSync(from, target);
      else writeFileSync(target, from);
      const fd = openSync(target, 'r');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw diskError(err, staging);
  }
  return staging;
}

/**
 * Moves the staged PDFs into `paperDir` (created when missing), replacing the paper's earlier
 * ones: a PDF of the earlier import that this one does not give is removed. Its runs stay.
 */
export function installPdfs(staging: string | null, paperDir: string, names: PdfName[]): void {
  mkdirSync(paperDir, { recursive: true });
  for (const name of Object.values(PDF_FILES)) {
    if (staging && names.includes(name)) renameSync(join(staging, name), join(paperDir, name));
    else rmSync(join(paperDir, name), { force: true });
  }
  discardStaging(staging);
}

/** Removes a staging directory, and the staging root once nothing else is staged there. */
export function discardStaging(staging: string | null): void {
  if (!staging) return;
  rmSync(staging, { recursive: true, force: true });
  try {
    rmdirSync(dirname(staging));
  } catch {
    // another import is staging its own files there
  }
}
