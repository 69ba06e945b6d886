import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isWithin, realOrSelf, statOrNull } from '../paths.ts';
import { headOf } from './files-type.ts';

/** Where the pipeline leaves a run's paper: the LaTeX source and the compiled PDF. */
const TEX_CANDIDATES = ['full_paper.tex', join('paper', 'full_paper.tex')];
const PDF_CANDIDATES = ['full_paper.pdf', join('paper', 'full_paper.pdf')];
/** The stage report that records the finished paper's page count (finalize_paper). */
const FINALIZE_REPORT = 'finalize_paper.json';
/** The title is in the preamble: this much of the source is read for it. */
const TITLE_SCAN_BYTES = 64 * 1024;
const PDFINFO_TIMEOUT_MS = 5000;

/** What a summary says of a run's paper: where it is, its title and page count (null when unknown). */
export type PaperFacts = { tex_path: string | null; pdf_path: string | null; title: string | null; pages: number | null };

/**
 * The paper of the run in `dir`, without compiling anything: the .tex and .pdf the pipeline
 * wrote, the title from the source's \title{...}, the pages from the finalize report when it
 * names this PDF, else from pdfinfo. Null when the run has neither file. A file that links out of
 * the run is not its paper.
 */
export function paperFacts(dir: string, env: Record<string, string | undefined> = process.env): PaperFacts | null {
  const tex = firstFile(dir, TEX_CANDIDATES);
  const pdf = firstFile(dir, PDF_CANDIDATES);
  if (!tex && !pdf) return null;
  return { tex_path: tex, pdf_path: pdf, title: tex ? texTitle(headOf(tex, TITLE_SCAN_BYTES)?.toString('utf8') ?? '') : null, pages: pdf ? pdfPageCount(dir, pdf, env) : null };
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

function pdfPageCount(dir: string, pdf: string, env: Record<string, string | undefined>): number | null {
  const recorded = finalizePages(dir, pdf);
  if (recorded !== null) return recorded;
  const pdfinfo = Bun.which('pdfinfo', { PATH: env.PATH ?? '' });
  if (!pdfinfo) return null;
  try {
    const r = Bun.spawnSync([pdfinfo, pdf], { env: { PATH: env.PATH ?? '', LANG: 'C' }, stdout: 'pipe', stderr: 'ignore', stdin: 'ignore', timeout: PDFINFO_TIMEOUT_MS });
    if (r.exitCode !== 0) return null;
    const pages = Number(/^Pages:\s+(\d+)/m.exec(r.stdout.toString())?.[1]);
    return Number.isInteger(pages) && pages > 0 ? pages : null;
  } catch {
    return null;
  }
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
