import type { Block, ReportDocument } from './document.ts';
import { figureFile } from './figure-files.ts';
import type { TexSetup } from './language.ts';

const TEX_SPECIAL: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '{': '\\{',
  '}': '\\}',
  $: '\\$',
  '&': '\\&',
  '#': '\\#',
  '%': '\\%',
  _: '\\_\\allowbreak{}',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
  '<': '\\textless{}',
  '>': '\\textgreater{}',
  '|': '\\textbar{}',
  // a bracket after \\ or \item would be read as an optional argument; dashes would join into ligatures
  '[': '{[}',
  ']': '{]}',
  '-': '-{}',
  // quotes as typed, not turned into curly ones or joined (`` and '' are ligatures)
  '`': '\\textasciigrave{}',
  "'": '\\textquotesingle{}',
  // places a long token (a path, a JSON line) may break
  '/': '/\\allowbreak{}',
  ',': ',\\allowbreak{}',
  ':': ':\\allowbreak{}',
};

/** The characters pdfLaTeX sets with T1 and utf8 input: ASCII, Latin-1 and common punctuation. */
const PDFLATEX_SAFE = /[\u0020-\u007E\u00A0-\u00FF\u2013\u2014\u2018\u2019\u201C\u201D\u2026]/;

/**
 * Text from the data as LaTeX that prints it and nothing else: every special character made
 * literal, control characters dropped. Under pdfLaTeX a character it has no glyph for would stop
 * the build; it is written as its code point instead (`[U+4E2D]`).
 */
export function texText(s: string, unicode: boolean): string {
  let out = '';
  for (const ch of s.replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g, '').replace(/[\t\n\r]+/g, ' ')) {
    const special = TEX_SPECIAL[ch];
    if (special !== undefined) out += special;
    else if (unicode || PDFLATEX_SAFE.test(ch)) out += ch;
    else out += `[U+${(ch.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}]`;
  }
  return out;
}

const CODE_WIDTH = 95;

function block(b: Block, x: (s: string) => string): string {
  switch (b.kind) {
    case 'kv':
      return `\\begin{longtable}{@{}p{0.3\\linewidth}p{0.66\\linewidth}@{}}\n${b.rows.map(([k, v]) => `\\textbf{${x(k)}} & ${x(v)} \\\\`).join('\n')}\n\\end{longtable}`;
    case 'table': {
      const widths = b.head.length === 5 ? [0.22, 0.07, 0.15, 0.08, 0.36] : b.head.map(() => 0.9 / b.head.length);
      const spec = widths.map((w) => `p{${w}\\linewidth}`).join('');
      return `{\\footnotesize\\begin{longtable}{@{}${spec}@{}}\n${b.head.map((h) => `\\textbf{${x(h)}}`).join(' & ')} \\\\ \\hline\\endhead\n${b.rows.map((r) => `${r.map(x).join(' & ')} \\\\`).join('\n')}\n\\end{longtable}}`;
    }
    case 'figure':
      return `\\begin{figure}[htbp]\\centering\n\\includegraphics[width=\\linewidth,height=0.8\\textheight,keepaspectratio]{${figureFile(b.name, 'png')}}\n\\caption{${x(b.caption)}}\n\\end{figure}`;
    case 'code': {
      // cut long lines so they stay on the page; spaces kept as they are
      const lines = b.lines.flatMap((l) => (l.length <= CODE_WIDTH ? [l] : (l.match(new RegExp(`.{1,${CODE_WIDTH}}`, 'gu')) ?? [l])));
      const body = lines.map((l) => (l === '' ? '\\mbox{}' : x(l).replace(/ /g, '\\ '))).join('\\\\\n');
      return `\\noindent ${x(b.caption)}\n\n{\\ttfamily\\footnotesize\\noindent\n${body || '\\mbox{}'}\\par}`;
    }
    case 'para':
      return `\\noindent ${x(b.text)}\\par`;
    case 'list':
      return `\\noindent ${x(b.caption)}:\n\\begin{itemize}\n${b.items.map((i) => `\\item{} ${x(i)}`).join('\n')}\n\\end{itemize}`;
    case 'subheading':
      return `\\subsection*{${x(b.text)}}`;
  }
}

/** The report as a LaTeX document; figures are PNG files beside it, under figures/. */
export function renderLatex(doc: ReportDocument, setup: TexSetup): string {
  const x = (s: string) => texText(s, setup.engine !== 'pdflatex');
  return [
    '\\documentclass[a4paper,10pt]{article}',
    ...setup.preamble,
    '\\usepackage[margin=2cm]{geometry}',
    '\\usepackage{graphicx}',
    '\\usepackage{longtable}',
    '\\usepackage{array}',
    '\\setlength{\\parindent}{0pt}',
    '\\setlength{\\parskip}{0.4em}',
    '\\sloppy',
    `\\title{${x(doc.title)}}`,
    '\\date{}',
    '\\begin{document}',
    '\\maketitle',
    ...doc.sections.map((s) => `\\section*{${x(s.heading)}}\n${s.blocks.map((b) => block(b, x)).join('\n\n')}`),
    '\\end{document}',
    '',
  ].join('\n');
}
