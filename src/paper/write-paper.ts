import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../core/atomic.ts';
import type { Env } from '../core/config/env-vars.ts';
import { InvalidRecordError } from '../core/errors.ts';
import { isFileAt, isSafeId } from '../core/paths.ts';
import { fillClaims } from './claims.ts';
import { bundleFacts, injectCodeAvailability } from './code-availability.ts';
import { compilePaper } from './compile.ts';
import { checkFormat, type FormatFinding } from './format-check.ts';
import { escapeLatex } from './latex-text.ts';
import { anchoredFigure, resultsTable } from './results-table.ts';
import { type Author, HEADINGS, type Review, SECTIONS, type SectionName, generateSection, refineSection, titleAndAbstract } from './sections.ts';
import { renderPaper } from './venues.ts';
import type { PaperFacts } from './writing-facts.ts';

export type WrittenPaper = {
  latex: string;
  bib: string;
  pdf_path: string;
  pages: number;
  title: string;
  format: FormatFinding[];
  reviews: Record<SectionName, Review[]>;
};

/**
 * write_paper_iterative: the five sections drafted at once, then each reviewed and revised up to
 * `maxRounds` times while the title and abstract are written from the drafts; the figures and the results table
 * put in the experiment section from the data, the claim anchors filled from science_data.json,
 * the code availability statement from what the checkpoint knows of its bundle, and the whole
 * rendered for the venue in `dir`, compiled and checked. The model writes prose only: every number
 * the paper prints is filled in from the data.
 */
export async function writePaper(a: Author, f: PaperFacts, opts: { dir: string; authors: string[]; maxRounds: number; checkpointDir: string | null; env: Env }): Promise<WrittenPaper> {
  const drafts = await Promise.all(SECTIONS.map((s) => generateSection(a, f, s)));
  const bySection = <T>(items: T[]) => Object.fromEntries(SECTIONS.map((s, i) => [s, items[i]])) as Record<SectionName, T>;
  // the title and abstract are written from the drafts while the drafts are reviewed; only a
  // section the review sends back makes them be written again, from the revised text
  const [fromDrafts, written] = await Promise.all([titleAndAbstract(a, f, bySection(drafts)), Promise.all(SECTIONS.map((s, i) => refineSection(a, f, s, drafts[i] ?? '', opts.maxRounds)))]);
  const text = bySection(written.map((w) => w.latex));
  const { title, abstract } = written.some((w) => w.revised) ? await titleAndAbstract(a, f, text) : fromDrafts;
  const body = SECTIONS.map((s) => `\\section{${HEADINGS[s]}}\n${text[s]}\n${s === 'experiment' ? `\n${experimentFloats(f)}` : ''}`).join('\n');
  const rendered = renderPaper(a.venue, { title: escapeLatex(title), authors: opts.authors, abstract, body, bibliography: f.refs.length > 0 ? 'refs' : null });
  const filled = fillClaims(rendered, f.data);
  if (filled.unknown.length) throw new InvalidRecordError(`the paper names values science_data.json does not have: ${filled.unknown.join(', ')}`);

  mkdirSync(opts.dir, { recursive: true });
  const main = join(opts.dir, 'main.tex');
  writeFileAtomic(main, filled.tex);
  writeFileAtomic(join(opts.dir, 'refs.bib'), f.bib);
  copyFigures(f, opts.dir);
  const bundle = opts.checkpointDir ? bundleFacts(opts.checkpointDir) : null;
  if (bundle && Object.values(bundle).some((v) => v !== null)) injectCodeAvailability(main, bundle);

  const build = await compilePaper(opts.dir, 'main.tex', opts.env);
  const report = await checkFormat(a.venue, build.pdf_path, opts.env, f.data);
  return { latex: readFileSync(main, 'utf8'), bib: f.bib, pdf_path: build.pdf_path, pages: build.pages, title, format: report.findings, reviews: bySection(written.map((w) => w.reviews)) };
}

/** The figures of the manifest whose files are there, their captions' numbers anchored, and the results table. */
function experimentFloats(f: PaperFacts): string {
  const figures = (f.figures?.figures ?? []).flatMap((fig, i) => (figureFile(f, fig.file) ? [anchoredFigure(f.figures?.latex_snippets[i] ?? '', fig, f.data)] : []));
  return [...figures, resultsTable(f.data)].join('\n');
}

/** A figure of the manifest: a plain file name beside it (a manifest is not a way to copy any file). */
function figureFile(f: PaperFacts, file: string): string | null {
  const from = f.figuresDir && isSafeId(file) ? join(f.figuresDir, file) : null;
  return from && isFileAt(from) ? from : null;
}

/** The figure files beside main.tex, where the snippets' \includegraphics look for them. */
function copyFigures(f: PaperFacts, dir: string): void {
  for (const fig of f.figures?.figures ?? []) {
    const from = figureFile(f, fig.file);
    if (!from) continue;
    const to = join(dir, fig.file);
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(from, to);
  }
}
