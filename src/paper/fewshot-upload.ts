import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic, writeJsonAtomic } from '../core/atomic.ts';
import { ConflictError, InputError, TooLargeError } from '../core/errors.ts';
import { exampleFiles, examplesDir } from './fewshot.ts';
import { cleanId } from './fewshot-ids.ts';
import { reviewRecord } from './fewshot-record.ts';
import type { LoadedRubric } from './rubrics.ts';
import { decodeBase64 } from '../core/text.ts';

/** Per-file caps of an uploaded example. */
export const MAX_EXCERPT_BYTES = 2 * 1024 * 1024;
export const MAX_PDF_BYTES = 50 * 1024 * 1024;

export type ExampleUpload = {
  /** example id (cleaned to letters, digits, _ and -) */
  id: string;
  review: unknown;
  text?: string;
  pdf_base64?: string;
};

/** An upload body in svc's shape `{id | name, review, text?, pdf_base64?}` or the ARI web UI's `{example_id, review_json, paper_txt?, paper_pdf?}`. */
export type UploadBody = {
  id?: string;
  name?: string;
  example_id?: string;
  review?: unknown;
  /** the review as an object, or as JSON text */
  review_json?: unknown;
  text?: string;
  paper_txt?: string;
  pdf_base64?: string;
  paper_pdf?: string;
};

/** The upload a body asks for, in either shape; a missing id or review JSON that does not parse is a 400. */
export function exampleUploadOf(body: UploadBody): ExampleUpload {
  const id = body.id ?? body.name ?? body.example_id;
  if (id === undefined) throw new InputError('body.id: the example id is missing', 'send it as id, name or example_id');
  let review = body.review;
  if (review === undefined && typeof body.review_json === 'string') {
    try {
      review = JSON.parse(body.review_json);
    } catch {
      throw new InputError('review_json is not JSON', 'send the review as a JSON object, or as its JSON text');
    }
  } else if (review === undefined) review = body.review_json;
  const text = body.text ?? body.paper_txt;
  const pdf = body.pdf_base64 ?? body.paper_pdf;
  return { id, review, ...(text !== undefined ? { text } : {}), ...(pdf !== undefined ? { pdf_base64: pdf } : {}) };
}

/**
 * Add one example to a rubric's corpus: the review record (checked against the rubric and tagged
 * with it as source), an optional paper excerpt and an optional PDF. Everything is checked before
 * anything is written; an example that already exists is not replaced.
 */
export function uploadExample(projectRoot: string, loaded: LoadedRubric, upload: ExampleUpload): { id: string; files: string[] } {
  const id = cleanId(upload.id, 'example');
  const record = reviewRecord(loaded, upload.review);
  if (upload.text !== undefined && Buffer.byteLength(upload.text) > MAX_EXCERPT_BYTES) {
    throw new TooLargeError(`text is larger than ${MAX_EXCERPT_BYTES / 1024 / 1024} MB`, 'give an excerpt of the paper, not the whole text');
  }
  const pdf = upload.pdf_base64 === undefined ? undefined : decodePdf(upload.pdf_base64);
  const dir = examplesDir(projectRoot, loaded.id);
  const existing = exampleFiles(dir, id);
  if (existing.length > 0) throw new ConflictError(`example '${id}' of rubric ${loaded.id} already exists (${existing.join(', ')})`, 'delete it first or choose another id');

  // the record goes last: an example exists once its .json does
  const writes: [string, () => void][] = [];
  if (pdf) writes.push([`${id}.pdf`, () => writeFileAtomic(join(dir, `${id}.pdf`), pdf)]);
  if (upload.text !== undefined) writes.push([`${id}.txt`, () => writeFileAtomic(join(dir, `${id}.txt`), upload.text ?? '')]);
  writes.push([`${id}.json`, () => writeJsonAtomic(join(dir, `${id}.json`), record)]);
  const done: string[] = [];
  try {
    for (const [name, write] of writes) {
      write();
      done.push(name);
    }
  } catch (err) {
    for (const name of done) rmSync(join(dir, name), { force: true });
    throw err;
  }
  return { id, files: done.sort() };
}

/**
 * The bytes of a base64 PDF (a `data:application/pdf;base64,` prefix is allowed, as browsers
 * produce it). Checked for size before decoding, and for the PDF signature after.
 */
export function decodePdf(base64: string): Buffer {
  const body = base64.replace(/^data:application\/pdf;base64,/, '').replace(/\s+/g, '');
  if (Math.floor((body.length * 3) / 4) > MAX_PDF_BYTES) throw new TooLargeError(`pdf_base64 decodes to more than ${MAX_PDF_BYTES / 1024 / 1024} MB`);
  const bytes = decodeBase64(body, 'pdf_base64');
  if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-') throw new InputError('pdf_base64 does not decode to a PDF: the file must start with %PDF-');
  return bytes;
}
