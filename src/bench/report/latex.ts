import { latexLiteral } from '../../paper/latex-text.ts';
import type { Block, ReportDocument } from './document.ts';
import { figureFile } from './figure-files.ts';
import type { TexSetup } from './language.ts';

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
  const x = (s: string) => latexLiteral(s, setup.engine !== 'pdflatex');
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
