import { readFileSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, relative } from 'node:path';
import { isFileAt, resolveInside } from '../core/paths.ts';
import { lineAt, maskComments } from './tex-text.ts';

export type TexSource = {
  path: string;
  /** the path relative to the main file's directory, as TeX names it */
  name: string;
  text: string;
};

/** More input files than a paper has: a guard against a document that inputs itself in a circle of names. */
const MAX_SOURCES = 200;

/**
 * A document's sources: the main .tex, then every file it pulls in with \input{...} or
 * \include{...}, each once. TeX finds them relative to the main file's directory; a file outside
 * that directory or not there is left out (the compile reports the latter).
 */
export function texSources(mainTex: string): TexSource[] {
  const dir = dirname(mainTex);
  const seen = new Set<string>();
  const out: TexSource[] = [];
  const visit = (path: string) => {
    if (seen.has(path) || out.length >= MAX_SOURCES || !isFileAt(path)) return;
    seen.add(path);
    const text = readFileSync(path, 'utf8');
    out.push({ path, name: relative(dir, path), text });
    for (const m of maskComments(text).matchAll(/\\(?:input|include)\s*\{([^{}]+)\}/g)) {
      const name = (m[1] ?? '').trim();
      try {
        visit(resolveInside(dir, extname(name) ? name : `${name}.tex`, 'input file'));
      } catch {
        // outside the document's directory: not part of what svc checks
      }
    }
  };
  visit(mainTex);
  return out;
}

/** The extensions pdfLaTeX's graphicx tries for a figure named without one. */
const FIGURE_EXTENSIONS = ['.pdf', '.png', '.jpg', '.mps', '.jpeg', '.jbig2', '.jb2', '.PDF', '.PNG', '.JPG', '.JPEG', '.JBIG2', '.JB2'];

export type MissingFigure = { figure: string; file: string; line: number };

/** \includegraphics files that are not there, looked for as graphicx does (with \graphicspath). */
export function missingFigures(sources: TexSource[], dir: string): MissingFigure[] {
  const texts = sources.map((s) => ({ s, text: maskComments(s.text) }));
  const paths = [''];
  for (const { text } of texts) {
    for (const m of text.matchAll(/\\graphicspath\s*\{((?:\s*\{[^{}]*\})*)\s*\}/g)) for (const p of (m[1] ?? '').matchAll(/\{([^{}]*)\}/g)) paths.push(p[1] ?? '');
  }
  const out: MissingFigure[] = [];
  for (const { s, text } of texts) {
    for (const m of text.matchAll(/\\includegraphics\*?\s*(?:\[[^\]]*\]\s*)*\{([^{}]+)\}/g)) {
      const figure = (m[1] ?? '').trim();
      const names = extname(figure) ? [figure] : ['', ...FIGURE_EXTENSIONS].map((e) => figure + e);
      const found = isAbsolute(figure) ? names.some(isFileAt) : paths.some((p) => names.some((n) => isFileAt(join(dir, p, n))));
      if (!found) out.push({ figure, file: s.name, line: lineAt(s.text, m.index) });
    }
  }
  return out;
}
