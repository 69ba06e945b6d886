/** Papers for the tests of the paper tools: a venue's template filled, with a small bibliography. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findVenue, renderPaper } from '../../src/paper/venues.ts';

export const REFS_BIB = `@book{knuth1998,
  author = {Donald E. Knuth},
  title = {The Art of Computer Programming, Volume 3: Sorting and Searching},
  publisher = {Addison-Wesley},
  year = {1998}
}
`;

export const PAPER_BODY = `\\section{Introduction}
Sorting by comparisons \\cite{knuth1998} is our subject.
The best configuration needs \\svcclaim{best.comparisons}{30{,}850} comparisons; its code is \\texttt{sort\\_fast.js}.
`;

/** Writes `<dir>/main.tex` for the venue (and refs.bib, and any extra files), returning the .tex path. */
export function writePaper(dir: string, venue: string, opts: { title?: string; body?: string; files?: Record<string, string> } = {}): string {
  mkdirSync(dir, { recursive: true });
  const tex = join(dir, 'main.tex');
  writeFileSync(tex, renderPaper(findVenue(venue), { title: opts.title ?? 'Sorting with Fewer Comparisons', authors: ['Ada Lovelace', 'Alan Turing'], abstract: 'We sort with fewer comparisons.', body: opts.body ?? PAPER_BODY }));
  writeFileSync(join(dir, 'refs.bib'), REFS_BIB);
  for (const [name, text] of Object.entries(opts.files ?? {})) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return tex;
}

/** The text of a PDF, as pdftotext reads it. */
export function pdfText(pdf: string): string {
  return Bun.spawnSync(['pdftotext', pdf, '-'], { stdout: 'pipe' }).stdout.toString();
}
