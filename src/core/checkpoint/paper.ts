import { constants, lstatSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { writeJsonAtomic } from '../atomic.ts';
import { isWithin, readRange, realOrSelf, statOrNull } from '../paths.ts';
import { headOf } from './files-type.ts';

/** Where the pipeline leaves a run's paper: the LaTeX source and the compiled PDF. */
const TEX_CANDIDATES = ['full_paper.tex', join('paper', 'full_paper.tex')];
const PDF_CANDIDATES = ['full_paper.pdf', join('paper', 'full_paper.pdf')];
/** The stage report that records the finished paper's page count (finalize_paper). */
const FINALIZE_REPORT = 'finalize_paper.json';
/** The title is in the preamble: this much of the source is read for it. */
const TITLE_SCAN_BYTES = 64 * 1024;
/** A page count record is a few dozen bytes; anything past this is not one. */
const MAX_PAGES_RECORD_BYTES = 4 * 1024;

/** What a summary says of a run's paper: where it is, its title and page count (null when unknown). */
export type PaperFacts = { tex_path: string | null; pdf_path: string | null; title: string | null; pages: number | null };

/**
 * The paper of the run in `dir`, without compiling or running anything: the .tex and .pdf the
 * pipeline wrote, the title from the source's \title{...}, the pages as the compile recorded them
 * beside this PDF (or the finalize report named it), null when no record counts the PDF as it is
 * now. Null when the run has neither file. A file that links out of the run is not its paper.
 */
export function paperFacts(dir: string): PaperFacts | null {
  const tex = firstFile(dir, TEX_CANDIDATES);
  const pdf = firstFile(dir, PDF_CANDIDATES);
  if (!tex && !pdf) return null;
  return { tex_path: tex, pdf_path: pdf, title: tex ? texTitle(headOf(tex, TITLE_SCAN_BYTES)?.toString('utf8') ?? '') : null, pages: pdf ? (recordedPages(pdf) ?? finalizePages(dir, pdf)) : null };
}

/** What a compile records beside `<name>.pdf`, in `<name>.pages.json`: the PDF's page count and the size and mtime of the PDF it counted. */
type PagesRecord = { pdf: string; pages: number; size: number; mtime_ms: number };

export function pagesRecordPath(pdf: string): string {
  return `${pdf.replace(/\.pdf$/i, '')}.pages.json`;
}

/** Records the page count of `pdf` as it is now, for readers that must not run pdfinfo themselves. */
export function recordPages(pdf: string, pages: number): void {
  const st = statSync(pdf);
  const record: PagesRecord = { pdf: basename(pdf), pages, size: st.size, mtime_ms: st.mtimeMs };
  writeJsonAtomic(pagesRecordPath(pdf), record);
}

/**
 * The page count recorded for `pdf`, when the record is there and the PDF has the size and mtime it
 * was counted at; else null. The record is read only as a regular file of at most 4 KiB, not
 * through a symlink: it sits in a folder a run writes, and a summary reads it on every request.
 */
export function recordedPages(pdf: string): number | null {
  const file = pagesRecordPath(pdf);
  try {
    const rst = lstatSync(file, { throwIfNoEntry: false });
    if (!rst?.isFile() || rst.size > MAX_PAGES_RECORD_BYTES) return null;
    const text = readRange(file, 0, MAX_PAGES_RECORD_BYTES + 1, constants.O_RDONLY | constants.O_NOFOLLOW).toString('utf8');
    if (Buffer.byteLength(text) > MAX_PAGES_RECORD_BYTES) return null;
    const r = JSON.parse(text) as Partial<PagesRecord>;
    const st = statSync(pdf);
    if (r.pdf !== basename(pdf) || r.size !== st.size || r.mtime_ms !== st.mtimeMs) return null;
    return typeof r.pages === 'number' && Number.isInteger(r.pages) && r.pages > 0 ? r.pages : null;
  } catch {
    return null;
  }
}

function firstFile(dir: string, candidates: string[]): string | null {
  const root = realOrSelf(dir);
  for (const rel of candidates) {
    const file = join(dir, rel);
    if (statOrNull(file)?.isFile() && isWithin(root, realOrSelf(file))) return file;
  }
  return null;
}

/** The text of the first \title{...} (its optional short form skipped), as a reader sees it; null when there is none. */
export function texTitle(tex: string): string | null {
  const src = tex.replace(/(^|[^\\])%.*$/gm, '$1');
  const m = /\\title\s*(?:\[[^\]]*\]\s*)?\{/.exec(src);
  if (!m) return null;
  let depth = 1;
  let i = m.index + m[0].length;
  const start = i;
  for (; i < src.length && depth > 0; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}') depth--;
  }
  if (depth !== 0) return null;
  const text = src
    .slice(start, i - 1)
    .replace(/\\(?:thanks|footnote)\s*\{[^{}]*\}/g, '')
    .replace(/\\\\(\[[^\]]*\])?/g, ' ')
    .replace(/\\([&%$#_{}])/g, '$1')
    .replace(/~/g, ' ')
    .replace(/\\[a-zA-Z]+\*?\s*/g, '')
    .replace(/[{}]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text || null;
}

/** The page count finalize_paper recorded, when it names this PDF and the PDF has not changed since. */
function finalizePages(dir: string, pdf: string): number | null {
  const file = join(dir, FINALIZE_REPORT);
  try {
    const report = JSON.parse(readFileSync(file, 'utf8')) as { pdf_path?: unknown; pages?: unknown };
    if (typeof report.pdf_path !== 'string' || realOrSelf(report.pdf_path) !== realOrSelf(pdf)) return null;
    if (statSync(pdf).mtimeMs > statSync(file).mtimeMs) return null;
    return typeof report.pages === 'number' && Number.isInteger(report.pages) && report.pages > 0 ? report.pages : null;
  } catch {
    return null;
  }
}
