/**
 * LaTeX source read as text: which parts are prose. Every view keeps the offsets and the line
 * breaks of the source (what is not prose becomes spaces), so a finding in a view is a line of the
 * file.
 */

/** The source with its comments (`%` to the end of the line, unless escaped) blanked. */
export function maskComments(tex: string): string {
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
 * file names, identifiers in typewriter type (code, digests, DOIs), lengths, counters, colours,
 * table rules and spans, definitions. Anchors are here too: their numbers are accounted for.
 * Optional `[...]` arguments of every command are options.
 */
const ARGS_NOT_PROSE: Readonly<Record<string, number>> = {
  svcclaim: 2,
  texttt: 1,
  label: 1, ref: 1, eqref: 1, pageref: 1, autoref: 1, cref: 1, Cref: 1, nameref: 1, vref: 1,
  includegraphics: 1, input: 1, include: 1, url: 1, nolinkurl: 1, href: 1,
  usepackage: 1, RequirePackage: 1, documentclass: 1, bibliography: 1, bibliographystyle: 1, graphicspath: 1,
  hspace: 1, 'hspace*': 1, vspace: 1, 'vspace*': 1, setlength: 2, addtolength: 2, settowidth: 2, newlength: 1,
  setcounter: 2, addtocounter: 2, stepcounter: 1, refstepcounter: 1, numberwithin: 2,
  multicolumn: 2, multirow: 2, cline: 1, cmidrule: 1, rule: 2, raisebox: 1, resizebox: 2, 'resizebox*': 2, scalebox: 1, rotatebox: 1,
  newcommand: 2, 'newcommand*': 2, renewcommand: 2, 'renewcommand*': 2, providecommand: 2, 'providecommand*': 2,
  fontsize: 2, linespread: 1, color: 1, textcolor: 1, colorbox: 1, definecolor: 3, captionsetup: 1,
  pagestyle: 1, thispagestyle: 1, pagenumbering: 1,
};
const CITE = /^(?:no)?cite[a-zA-Z]*\*?$|^(?:paren|text|auto|foot)cite\*?$/i;

/** Environments with no prose at all: displayed equations (which the claim gate leaves out too), code, drawings, the reference list. */
const NO_PROSE_ENVS = new Set([
  'equation', 'equation*', 'align', 'align*', 'alignat', 'alignat*', 'gather', 'gather*', 'multline', 'multline*', 'flalign', 'flalign*',
  'eqnarray', 'eqnarray*', 'displaymath', 'verbatim', 'verbatim*', 'lstlisting', 'minted', 'comment', 'thebibliography',
  'tikzpicture', 'pgfpicture', 'picture',
]);
/** Brace arguments of `\begin{env}` that set widths and column specifications. */
const ENV_ARGS: Readonly<Record<string, number>> = {
  tabular: 1, 'tabular*': 2, tabularx: 2, tabulary: 2, array: 1, longtable: 1, minipage: 1,
  wrapfigure: 2, wraptable: 2, subfigure: 1, subtable: 1, multicols: 1, 'multicols*': 1,
};

/**
 * The prose of a LaTeX text: the document body (all of a file without `\begin{document}`, such as
 * a section file) without comments, command names, their options and non-prose arguments,
 * environments without prose, `\begin`/`\end` lines with their widths and column
 * specifications, displayed math, and sub- and superscripts. Text arguments (`\textbf{...}`,
 * `\caption{...}`, section titles) stay.
 */
export function proseView(tex: string): string {
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
  let i = start;
  while (i < end) {
    const c = src[i];
    let next = i + 1;
    if (c === '\\') next = command(i);
    else if (c === '$' && src[i + 1] === '$') next = until(i + 2, '$$');
    else if (c === '^' || c === '_') next = scriptEnd(i + 1);
    else {
      i = next;
      continue;
    }
    blank(i, next);
    i = next;
  }
  return out.join('');

  /** Where the command at `at` and what of it is not prose end. */
  function command(at: number): number {
    const m = /\\([A-Za-z@]+\*?|[\s\S])/y;
    m.lastIndex = at;
    const name = m.exec(src)?.[1] ?? '';
    let j = at + 1 + name.length;
    if (name === '[') return until(j, '\\]');
    if (name === 'verb' || name === 'verb*') return src.indexOf(src[j] ?? '', j + 1) + 1 || j;
    if (name === 'begin' || name === 'end') {
      const g = group(j);
      if (!g) return j;
      const env = src.slice(g.open + 1, g.close).trim();
      j = g.close + 1;
      if (name === 'begin' && NO_PROSE_ENVS.has(env)) return until(j, `\\end{${env}}`);
      return name === 'begin' ? args(j, ENV_ARGS[env] ?? 0) : j;
    }
    return args(j, Object.hasOwn(ARGS_NOT_PROSE, name) ? (ARGS_NOT_PROSE[name] as number) : CITE.test(name) ? 1 : 0, name === 'cmidrule');
  }

  /** Past the optional arguments and the first `braces` brace arguments that follow. */
  function args(from: number, braces: number, parens = false): number {
    let j = from;
    for (;;) {
      const k = skipSpace(j);
      const c = src[k];
      if (c === '[') j = closing(k, '[', ']');
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
