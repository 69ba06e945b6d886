import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { writeFileAtomic, writeJsonAtomic } from '../core/atomic.ts';
import { recordedPages, recordPages } from '../core/checkpoint/paper.ts';
import { isWithin, statOrNull } from '../core/paths.ts';
import { isMapping } from '../core/values.ts';

/** A PDF smaller than this is no compiled paper (a failed build's stub). */
const MIN_PDF_BYTES = 1024;

/**
 * Keeps a tool's result as its stage's output file, when the tool did not write that file itself:
 * - a `.tex` output is the LaTeX: the result itself when it is text, else its `latex`; its `bib`
 *   goes to refs.bib beside it and its `pdf_path` (a real PDF) to the .pdf of the same name. A
 *   result without LaTeX fails the stage, kept in `_debug_<stage>.json` in the checkpoint;
 * - a `.pdf` output is a copy of the PDF the result names (`pdf_path`), or the stage fails;
 * - anything else is the result: text as it is, other values as JSON.
 * Returns why the stage fails, or null.
 */
export function keepStageOutput(file: string, value: unknown, stage: string, checkpointDir: string): string | null {
  const record = isMapping(value) ? value : {};
  if (file.endsWith('.tex')) {
    const latex = typeof value === 'string' ? value : typeof record.latex === 'string' ? record.latex : '';
    if (latex.trim() === '') {
      writeJsonAtomic(join(checkpointDir, `_debug_${stage}.json`), value);
      return `the tool returned no LaTeX for ${file} (its result is in _debug_${stage}.json)`;
    }
    writeFileAtomic(file, latex);
    if (typeof record.bib === 'string' && record.bib.trim() !== '') writeFileAtomic(join(dirname(file), 'refs.bib'), record.bib);
    copyPdf(record.pdf_path, file.replace(/\.tex$/, '.pdf'));
    return null;
  }
  if (file.endsWith('.pdf')) return copyPdf(record.pdf_path, file) ? null : `the tool returned no PDF for ${file} (no pdf_path of a compiled paper)`;
  if (typeof value === 'string' && !file.endsWith('.json')) writeFileAtomic(file, value);
  else writeJsonAtomic(file, value);
  return null;
}

/** Copies a compiled PDF to `to` (nothing to do when it is already there), with the page count its compile recorded; false when `from` is none. */
function copyPdf(from: unknown, to: string): boolean {
  if (typeof from !== 'string' || (statOrNull(from)?.size ?? 0) < MIN_PDF_BYTES) return false;
  // a compiled paper of this run, in its checkpoint: a tool's result is not a way to copy any file in
  if (!isWithin(dirname(resolve(to)), resolve(from)) || !readFileSync(from).subarray(0, 5).equals(Buffer.from('%PDF-'))) return false;
  if (resolve(from) !== resolve(to)) {
    writeFileAtomic(to, readFileSync(from));
    const pages = recordedPages(from);
    if (pages !== null) recordPages(to, pages);
  }
  return true;
}
