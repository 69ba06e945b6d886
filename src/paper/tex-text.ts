/**
 * LaTeX source read as text: which parts are prose. Every view keeps the offsets and the line
 * breaks of the source (what is not prose becomes spaces), so a finding in a view is a line of the
 * file.
 */

/** A paper is a few hundred kilobytes of LaTeX; a source bigger than this is not one. */
export const MAX_TEX_BYTES = 4 * 1024 * 1024;

/**
 * The last answer of a pure function of one text: a paper is read by several checks in a row
 * (anchors, numbers, sections, claims), each asking for the same view of the same source.
 */
function lastOne(f: (tex: string) => string): (tex: string) => string {
  let input: string | null = null;
  let output = '';
  return (tex) => {
    if (tex !== input) {
      output = f(tex);
      input = tex;
    }
    return output;
  };
}

/** The source with its comments (`%` to the end of the line, unless escaped) blanked. */
export const maskComments = lastOne(maskCommentsOf);

function maskCommentsOf(tex: string): string {
  return tex.replace(/(^|[^\\])((?:\\\\)*)%.*$/gm, (all, pre: string, slashes: string) => `${pre}${slashes}${' '.repeat(all.length - pre.length - slashes.length)}`);
}

/** 1-based line number of an offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * Brace arguments whose content is not prose, by command: labels, references, citation keys,
 * file names, URLs, lengths, counters, colours, table rules and spans, equation tags, definitions.
 * Anchors are here too: their numbers are accounted for. Text in typewriter type is prose.
 */
const ARGS_NOT_PROSE: Readonly<Record<string, number>> = {
  svcclaim: 2,
  label: 1, ref: 1, eqref: 1, pageref: 1, autoref: 1, cref: 1, Cref: 1, nameref: 1, vref: 1, tag: 1, 'tag*': 1,
  includegraphics: 1, 'includegraphics*': 1, input: 1, include: 1, url: 1, nolinkurl: 1, href: 1,
  usepackage: 1, RequirePackage: 1, documentclass: 1, bibliography: 1, bibliographystyle: 1, graphicspath: 1,
  hspace: 1, 'hspace*': 1, vspace: 1, 'vspace*': 1, setlength: 2, addtolength: 2, settowidth: 2, newlength: 1,
  setcounter: 2, addtocounter: 2, stepcounter: 1, refstepcounter: 1, numberwithin: 2,
  multicolumn: 2, multirow: 2, cline: 1, cmidrule: 1, rule: 2, raisebox: 1, resizebox: 2, 'resizebox*': 2, scalebox: 1, rotatebox: 1,
  newcommand: 2, 'newcommand*': 2, renewcommand: 2, 'renewcommand*': 2, providecommand: 2, 'providecommand*': 2,
  fontsize: 2, linespread: 1, color: 1, textcolor: 1, colorbox: 1, definecolor: 3, captionsetup: 1,
  pagestyle: 1, thispagestyle: 1, pagenumbering: 1,
};
const CITE = /^(?:no)?cite[a-zA-Z]*\*?$|^(?:paren|text|auto|foot)cite\*?$/i;
/**
 * Commands whose `[...]` arguments are options, not text: class and package options, graphics
 * sizes, the space after a line break (`\\[2pt]`), box and rule sizes, argument counts of
 * definitions, footnote marks. Brackets after any other command are text, as TeX prints them; a
 * citation's notes are text unless they are locators (see isLocator).
 */
const TAKES_OPTIONS = new Set([
  '\\', 'tabularnewline', 'documentclass', 'usepackage', 'RequirePackage', 'includegraphics', 'includegraphics*',
  'newcommand', 'newcommand*', 'renewcommand', 'renewcommand*', 'providecommand', 'providecommand*', 'newenvironment', 'renewenvironment',
  'linebreak', 'nolinebreak', 'pagebreak', 'nopagebreak', 'parbox', 'makebox', 'framebox', 'raisebox', 'rotatebox', 'scalebox',
  'multirow', 'rule', 'toprule', 'midrule', 'bottomrule', 'cmidrule', 'addlinespace', 'color', 'textcolor', 'colorbox', 'definecolor',
  'captionsetup', 'bibitem', 'hyperref', 'lstinputlisting', 'footnote', 'footnotemark', 'footnotetext',
]);

/** A word that names a place in a work: a page, a section, a figure, a theorem, an equation. */
const LOCATOR_TERM = String.raw`(?:§§?|(?:p|pp|n|nn|l|ll)\.|(?:pp?|pages?|secs?|sects?|sections?|chs?|chaps?|chapters?|figs?|figures?|tabs?|tables?|thms?|theorems?|lems?|lemmas?|lemmata|eqs?|eqns?|equations?|defs?|defns?|definitions?|props?|propositions?|cors?|corollary|corollaries|apps?|appx|appendix|appendices|algs?|algorithms?|exs?|examples?|exercises?|probs?|problems?|parts?|vols?|volumes?|lines?|fns?|footnotes?|notes?|cols?|columns?|paras?|paragraphs?|arts?|articles?|claims?|remarks?|steps?|listings?|items?|conjectures?|assumptions?|axioms?|observations?)\.?)`;
/** A place number after such a word, and lists and ranges of them: `3`, `3.2`, `A.1`, `(3)`, `4b`, `3--5`, `2 and 4`. */
const PLACE_NUMBER = String.raw`\(?[A-Z]?\d+(?:\.\d+)*[a-z]?\)?`;
const LOCATED = new RegExp(String.raw`(?<![A-Za-z])${LOCATOR_TERM}\s*${PLACE_NUMBER}(?:\s*(?:-|,|;|and|&|to)\s*${PLACE_NUMBER})*(?:\s*ff?\.)?`, 'gi');
/** A note of page numbers only, as biblatex prints with "p.": `42`, `12--14`, `3, 7`. */
const PAGES_ONLY = /^\(?\d+[a-z]?\)?(?:\s*(?:-|,|and|&)\s*\(?\d+[a-z]?\)?)*(?:\s*ff?\.)?$/i;

/**
 * A citation note that only says where in the work to look: empty, words without numbers ("see",
 * "e.g."), page numbers, or numbers after a word naming a place ("p.~3", "Sec.~2", "Eq.~(3)").
 */
function isLocator(note: string): boolean {
  const text = note
    .replace(/\\S(?![A-Za-z])/g, '§')
    .replace(/\\(?:[,;: ]|thinspace|nobreakspace|space)(?![A-Za-z])|~|[{}]/g, ' ')
    .replace(/-{2,3}|\u2013|\u2014/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
  if (!/\d/.test(text) || PAGES_ONLY.test(text)) return true;
  return !/\d/.test(text.replace(LOCATED, ' '));
}

/** Environments with no prose at all: code, drawings, the reference list. Displayed math is read as inline math is. */
const NO_PROSE_ENVS = new Set(['verbatim', 'verbatim*', 'lstlisting', 'minted', 'comment', 'thebibliography', 'tikzpicture', 'pgfpicture', 'picture']);
/**
 * Environments whose `[...]` after `\begin{env}` are options (placement, alignment, list settings);
 * any other's are text, such as a theorem's name, multicols' header or brackets after center.
 */
const ENV_OPTIONS = new Set([
  'figure', 'figure*', 'table', 'table*', 'tabular', 'tabular*', 'tabularx', 'tabulary', 'array', 'longtable', 'minipage',
  'subfigure', 'subtable', 'wrapfigure', 'wraptable', 'itemize', 'enumerate', 'description',
  'lstlisting', 'minted', 'algorithm', 'algorithmic',
]);
/**
 * The markers of svc's code availability statement (inject_code_availability): the digest, DOI
 * and reference it names in typewriter type are identifiers, not numbers of the paper.
 */
export const CODE_AVAILABILITY_BEGIN = '%% svc:code-availability';
export const CODE_AVAILABILITY_END = '%% svc:code-availability end';
/** Brace arguments of `\begin{env}` that set widths and column specifications. */
const ENV_ARGS: Readonly<Record<string, number>> = {
  tabular: 1, 'tabular*': 2, tabularx: 2, tabulary: 2, array: 1, longtable: 1, minipage: 1,
  wrapfigure: 2, wraptable: 2, subfigure: 1, subtable: 1, multicols: 1, 'multicols*': 1,
};

/**
 * The prose of a LaTeX text: the document body (all of a file without `\begin{document}`, such as
 * a section file) without comments, command names, the options of commands that take options and
 * the non-prose arguments, environments without prose, `\begin`/`\end` lines with their options,
 * widths and column specifications, one-digit sub- and superscripts (`x_1`, `n^2`), and the
 * identifiers of svc's code availability statement. Text arguments (`\textbf{...}`,
 * `\texttt{...}`, `\caption{...}`, section titles) and math, inline or displayed, stay.
 */
export const proseView = lastOne(proseViewOf);

function proseViewOf(tex: string): string {
  const src = maskComments(tex);
  const out = src.split('');
  const blank = (from: number, to: number) => {
    for (let k = from; k < to && k < out.length; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  const begin = src.indexOf('\\begin{document}');
  const start = begin < 0 ? 0 : begin + '\\begin{document}'.length;
  const endDoc = src.indexOf('\\end{document}', start);
  const end = endDoc < 0 ? src.length : endDoc;
  blank(0, start);
  blank(end, src.length);

  const until = (from: number, closing: string) => {
    const at = src.indexOf(closing, from);
    return at < 0 ? end : at + closing.length;
  };
  const blockAt = tex.indexOf(CODE_AVAILABILITY_BEGIN);
  const blockEnd = blockAt < 0 ? -1 : tex.indexOf(CODE_AVAILABILITY_END, blockAt + CODE_AVAILABILITY_BEGIN.length);
  const inCodeAvailability = (at: number) => blockEnd >= 0 && at > blockAt && at < blockEnd;
  const scripts: [number, number][] = [];
  /** Parts of the command just read that are prose all the same: citation notes that are not locators. */
  let proseParts: [number, number][] = [];
  scan(start, end);
  // an index or a small power (x_1, n^2, 2^{-1}) is notation; a number of more digits is a number
  for (const [from, to] of scripts) {
    for (let k = from; k < to; k++) {
      if (/\d/.test(out[k] as string) && !/[\d.]/.test(out[k - 1] ?? '') && !/[\d.,]/.test(out[k + 1] ?? '')) out[k] = ' ';
    }
  }
  return out.join('');

  function scan(from: number, to: number): void {
    let i = from;
    while (i < to) {
      const c = src[i];
      let next = i + 1;
      if (c === '\\') next = command(i);
      else if (c === '^' || c === '_') {
        // a script is read as the rest of the math; which of its digits count is settled below
        scripts.push([i + 1, scriptEnd(i + 1)]);
      } else {
        i = next;
        continue;
      }
      blank(i, next);
      const parts = proseParts;
      proseParts = [];
      for (const [a, b] of parts) {
        for (let k = a; k < b; k++) out[k] = src[k] as string;
        scan(a, b);
      }
      i = next;
    }
  }

  /** Where the command at `at` and what of it is not prose end. */
  function command(at: number): number {
    const m = /\\([A-Za-z@]+\*?|[\s\S])/y;
    m.lastIndex = at;
    const name = m.exec(src)?.[1] ?? '';
    let j = at + 1 + name.length;
    if (name === 'verb' || name === 'verb*') return src.indexOf(src[j] ?? '', j + 1) + 1 || j;
    if (name === '\\' && src[j] === '*') j++;
    if (name === 'begin' || name === 'end') {
      const g = group(j);
      if (!g) return j;
      const env = src.slice(g.open + 1, g.close).trim();
      j = g.close + 1;
      if (name === 'begin' && NO_PROSE_ENVS.has(env)) return until(j, `\\end{${env}}`);
      return name === 'begin' ? args(j, ENV_ARGS[env] ?? 0, ENV_OPTIONS.has(env)) : j;
    }
    if (name === 'texttt' && inCodeAvailability(at)) return args(j, 1, false);
    if (CITE.test(name)) return citation(j);
    const braces = Object.hasOwn(ARGS_NOT_PROSE, name) ? (ARGS_NOT_PROSE[name] as number) : 0;
    return args(j, braces, TAKES_OPTIONS.has(name), name === 'cmidrule');
  }

  /** Past a citation's notes and keys; a note that is not a locator is noted as prose. */
  function citation(from: number): number {
    let j = from;
    for (;;) {
      const k = skipSpace(j);
      if (src[k] === '[') {
        j = closing(k, '[', ']');
        if (!isLocator(src.slice(k + 1, j - 1))) proseParts.push([k + 1, j - 1]);
      } else return src[k] === '{' ? closing(k, '{', '}') : j;
    }
  }

  /** Past the first `braces` brace arguments and, for a command that takes options, the `[...]` among and after them. */
  function args(from: number, braces: number, options: boolean, parens = false): number {
    let j = from;
    for (;;) {
      const k = skipSpace(j);
      const c = src[k];
      if (c === '[' && options) j = closing(k, '[', ']');
      else if (parens && c === '(') j = closing(k, '(', ')');
      else if (c === '{' && braces > 0) {
        j = closing(k, '{', '}');
        braces--;
      } else return j;
    }
  }

  function scriptEnd(from: number): number {
    if (src[from] === '{') return closing(from, '{', '}');
    const m = /\\[A-Za-z]+|\\[\s\S]|[\s\S]/y;
    m.lastIndex = from;
    return from + (m.exec(src)?.[0].length ?? 1);
  }

  function group(from: number): { open: number; close: number } | null {
    const k = skipSpace(from);
    return src[k] === '{' ? { open: k, close: closing(k, '{', '}') - 1 } : null;
  }

  /** Just past the bracket that closes the one at `open`; braces nest, escaped ones do not count. */
  function closing(open: number, left: string, right: string): number {
    let depth = 0;
    let braces = 0;
    for (let k = open; k < end; k++) {
      const c = src[k];
      if (c === '\\') k++;
      else if (left !== '{' && c === '{') braces++;
      else if (left !== '{' && c === '}') braces--;
      else if (braces === 0 && c === left) depth++;
      else if (braces === 0 && c === right && --depth === 0) return k + 1;
    }
    return end;
  }

  /** Past spaces and at most one line end: a blank line ends a command's arguments. */
  function skipSpace(from: number): number {
    let k = from;
    let lines = 0;
    while (k < end && (src[k] === ' ' || src[k] === '\t' || src[k] === '\n')) {
      if (src[k] === '\n' && ++lines > 1) break;
      k++;
    }
    return k;
  }
}
