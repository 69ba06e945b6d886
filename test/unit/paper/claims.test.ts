import { describe, expect, test } from 'bun:test';
import { CLAIM_PREAMBLE, claimProblems, fillClaims, formatClaimValue, listClaims, numberValue, unanchoredNumbers } from '../../../src/paper/claims.ts';
import { formatNumber } from '../../../src/science/numbers.ts';
import type { ScienceData } from '../../../src/schema/science-data.ts';

const value = (v: number, metric = 'comparisons') => ({ value: v, metric, node_id: null, what: metric });
const DATA: ScienceData = {
  schema_version: 1,
  primary_metric: { name: 'comparisons', higher_is_better: false, unit: null },
  experiment_context: { goal: 'sort with fewer comparisons', idea: null, method_summary: '' },
  configurations: [],
  best: { node_id: 'node_b', value: 30850 },
  baseline: { node_id: 'node_a', value: 953100 },
  values: {
    'best.comparisons': value(30850),
    'baseline.comparisons': value(953100),
    'improvement.comparisons.ratio': value(30.894651539708267),
    'improvement.comparisons.percent': value(-96.76319379917113),
    'count.configurations': value(5, 'configurations'),
    'node_b.accuracy': value(0.97312, 'accuracy'),
  },
};

describe('formatting a value', () => {
  test('integers in full with thin thousands separators', () => {
    expect(formatNumber(30850)).toBe('30{,}850');
    expect(formatNumber(953100)).toBe('953{,}100');
    expect(formatNumber(1000)).toBe('1{,}000');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber(5)).toBe('5');
    expect(formatNumber(0)).toBe('0');
  });

  test('other numbers to three significant digits, integer digits kept, no trailing zeros', () => {
    expect(formatNumber(0.97312)).toBe('0.973');
    expect(formatNumber(12.3456)).toBe('12.3');
    expect(formatNumber(30.894651539708267)).toBe('30.9');
    expect(formatNumber(1234.567)).toBe('1{,}235');
    expect(formatNumber(0.012345)).toBe('0.0123');
    expect(formatNumber(2.5)).toBe('2.5');
    expect(formatNumber(9.996)).toBe('10');
  });

  test('a minus sign and powers of ten that work in text and in math', () => {
    expect(formatNumber(-96.76319379917113)).toBe('\\ensuremath{-}96.8');
    expect(formatNumber(0.00001234)).toBe('\\ensuremath{1.23\\times10^{-5}}');
    expect(formatNumber(-0.0005)).toBe('\\ensuremath{-5\\times10^{-4}}');
    expect(formatNumber(1e16)).toBe('\\ensuremath{1\\times10^{16}}');
  });

  test('percent keys print a percent sign; the same value always prints the same', () => {
    expect(formatClaimValue('improvement.comparisons.percent', -96.76319379917113)).toBe('\\ensuremath{-}96.8\\%');
    expect(formatClaimValue('improvement.comparisons.ratio', 30.894651539708267)).toBe('30.9');
    expect(formatClaimValue('best.comparisons', 30850)).toBe(formatClaimValue('best.comparisons', 30850));
  });
});

describe('anchors', () => {
  test('the preamble prints the second argument', () => {
    expect(CLAIM_PREAMBLE).toBe('\\newcommand{\\svcclaim}[2]{#2}');
  });

  test('listClaims: both forms, with their lines; anchors in comments and the definition are not anchors', () => {
    const tex = `${CLAIM_PREAMBLE}\nWe need \\svcclaim{best.comparisons}{30{,}850}\ncomparisons, \\svcclaim{ improvement.comparisons.ratio } times fewer.\n% \\svcclaim{count.configurations}{5}\n`;
    expect(listClaims(tex).map(({ key, printed, line }) => ({ key, printed, line }))).toEqual([
      { key: 'best.comparisons', printed: '30{,}850', line: 2 },
      { key: 'improvement.comparisons.ratio', printed: null, line: 3 },
    ]);
  });

  test('as TeX reads it: a brace group after one line end is the second argument, after a blank line it is not', () => {
    expect(listClaims('\\svcclaim{a}\n{1}')[0]?.printed).toBe('1');
    expect(listClaims('\\svcclaim{a}\n\n{1}')[0]?.printed).toBeNull();
  });

  test('fillClaims fills requests, puts back values changed by hand, and lists unknown keys untouched', () => {
    const tex = 'Best: \\svcclaim{best.comparisons}; \\svcclaim{improvement.comparisons.ratio}{31} times; \\svcclaim{improvement.comparisons.percent}; \\svcclaim{node_z.speed}.';
    const out = fillClaims(tex, DATA);
    expect(out.tex).toBe(
      'Best: \\svcclaim{best.comparisons}{30{,}850}; \\svcclaim{improvement.comparisons.ratio}{30.9} times; \\svcclaim{improvement.comparisons.percent}{\\ensuremath{-}96.8\\%}; \\svcclaim{node_z.speed}.',
    );
    expect(out.filled).toEqual(['best.comparisons', 'improvement.comparisons.ratio', 'improvement.comparisons.percent']);
    expect(out.unknown).toEqual(['node_z.speed']);
    // filling again changes nothing
    expect(fillClaims(out.tex, DATA).tex).toBe(out.tex);
  });

  test('claimProblems: unfilled requests; with the data, unknown keys and printed values that differ', () => {
    const tex = '\\svcclaim{best.comparisons}{30{,}000}\n\\svcclaim{count.configurations}\n\\svcclaim{nope.x}{1}\n\\svcclaim{baseline.comparisons}{953{,}100}';
    expect(claimProblems(tex, null).map((p) => [p.key, p.problem])).toEqual([['count.configurations', 'unfilled']]);
    expect(claimProblems(tex, DATA)).toEqual([
      { key: 'best.comparisons', line: 1, problem: 'value_mismatch', printed: '30{,}000', expected: '30{,}850' },
      { key: 'count.configurations', line: 2, problem: 'unfilled', printed: null, expected: '5' },
      { key: 'nope.x', line: 3, problem: 'unknown_key', printed: '1', expected: null },
    ]);
  });
});

const numbers = (tex: string) => unanchoredNumbers(tex).map((n) => n.number);

describe('numbers without an anchor', () => {
  test('a number in the prose is flagged with its line; an anchored one is not', () => {
    const tex = '\\begin{document}\nWe need \\svcclaim{best.comparisons}{30{,}850} comparisons,\n30.9x fewer than the baseline in 12ms.\n\\end{document}\n';
    expect(unanchoredNumbers(tex)).toEqual([
      { number: '30.9', line: 3, offset: 76, context: '30.9x fewer than the baseline in 12ms.' },
      { number: '12', line: 3, offset: 109, context: '30.9x fewer than the baseline in 12ms.' },
    ]);
  });

  test('grouped numbers, percentages and numbers in text arguments, captions, tables and inline math count', () => {
    expect(numbers('\\textbf{41.5\\%} of 1,200 runs and 30{,}850 more; \\caption{Over 7 runs.} \\begin{tabular}{lrr} a & 17.2 \\\\ \\end{tabular} $n=100$')).toEqual([
      '41.5',
      '1,200',
      '30{,}850',
      '7',
      '17.2',
      '100',
    ]);
  });

  test('commands, their options, labels, references, citations, files and lengths are not prose', () => {
    const tex = [
      '\\documentclass[10pt]{article}\\usepackage[margin=1in]{geometry}',
      '\\begin{document}',
      '\\begin{figure}[t]\\centering\\includegraphics[width=0.8\\linewidth]{fig1.pdf}\\label{fig:1}\\end{figure}',
      'See \\ref{sec:3}, \\eqref{eq:2}, \\cite{knuth1997,a2020}, \\citep[p.~5]{b2} and \\url{https://x.org/v2}.',
      '\\hspace{3mm}\\vspace*{-2pt} line\\\\[2pt] \\setcounter{page}{4} \\multicolumn{2}{c}{x} \\cmidrule(lr){2-3}',
      '\\begin{minipage}{0.45\\textwidth} \\end{minipage} \\resizebox{0.9\\linewidth}{!}{x} a 0.5\\columnwidth box',
      '\\begin{equation} x_1 = \\svcclaim{best.comparisons}{30{,}850} \\label{eq:9} \\end{equation} $O(n^2)$, $n^{-1}$ and $x_1$ % 99 in a comment',
      '\\begin{verbatim} 123 \\end{verbatim} \\verb|456| \\texttt{v1.2.3} \\newcommand{\\five}[1]{5}',
      'one\\\\[2pt] two\\\\*[3pt] \\begin{table}[htbp] \\begin{tabular}[t]{lr} \\end{tabular} \\end{table} \\begin{itemize}[leftmargin=2em] \\end{itemize}',
      '\\end{document}',
      'after the end: 77',
    ].join('\n');
    expect(numbers(tex)).toEqual([]);
  });

  test('names, ordinals, places in the paper, section numbering, citation years and enumerators are not results', () => {
    const tex = [
      'ResNet50 on CIFAR-10 in 3D with GPT-4 on x86, the 2nd and 3rd runs.',
      'Section~3, Sections 2 and 4, Figure 1, Fig.~5, Table~2, Eq.~(7), Appendix 1, Algorithm 2, line 14.',
      '\\section{3 Results}\\section*{3. Setup}\\section[4 Short]{4 Long}\\paragraph{12}',
      'As Smith et al. (2020) and Lee et al. 2019 show, and (Jones, 2018; Kim and Park 2021b), Knuth (1997) too.',
      'We (1) measure and (2) compare.',
    ].join('\n');
    expect(numbers(tex)).toEqual([]);
  });

  test('brackets after a command that takes no options are text: their numbers count', () => {
    expect(numbers('\\textbf[42]{x} \\centering[0.93] \\ref{fig:1}[7.5] \\label{x} [8.25] \\item[0.5] \\begin{theorem}[12.5] x \\end{theorem}')).toEqual(['42', '0.93', '7.5', '8.25', '0.5', '12.5']);
  });

  test('numbers in math, inline or displayed, in scripts of more than one digit and in typewriter type count', () => {
    const tex = [
      '$x = 0.93$ and \\(y = 0.75\\)',
      '\\[ z = 7 \\] $$ w = 9 $$',
      '\\begin{equation} a = 42 \\end{equation} \\begin{align*} b &= 3.5 \\\\ \\end{align*}',
      '$x^{0.93}$ and $10^{-4}$ and \\texttt{0.88} and \\texttt{--lr 0.01}',
    ].join('\n');
    expect(numbers(tex)).toEqual(['0.93', '0.75', '7', '9', '42', '3.5', '0.93', '10', '0.88', '0.01']);
  });

  test("the digest, DOI and reference of svc's code availability statement are identifiers; typewriter type elsewhere is not", () => {
    const statement = [
      '%% svc:code-availability (written by inject_code_availability, which replaces it)',
      '\\section*{Code availability}',
      'The code is available as the artifact bundle \\texttt{svc://reg/b@1.2} (SHA-256 \\texttt{1234567890123456\\allowbreak{}12h9abcdef012345}; DOI \\texttt{10.5281/\\allowbreak{}zenodo.\\allowbreak{}123456}), under the Apache-2.0 license.',
      '%% svc:code-availability end',
      '',
    ].join('\n');
    expect(numbers(statement)).toEqual([]);
    expect(numbers(`\\texttt{1234567890123456} ${statement}`)).toEqual(['1234567890123456']);
  });

  test('a year outside a citation and numbers in a section title after its numbering still count', () => {
    expect(numbers('In 2023 we ran it. \\section{Results on 4 datasets}')).toEqual(['2023', '4']);
  });
});

describe('citation notes', () => {
  test('a note that is a locator or a word such as "see" is not prose', () => {
    const tex = [
      '\\citep[p.~3]{a} \\citep[pp.~3--5]{a} \\citep[Sec.~2]{a} \\cite[Section 4]{a} \\citet[Chapter 2]{a}',
      '\\citep[Fig.~1]{a} \\citep[Thm.~2]{a} \\citep[Eq.~(3)]{a} \\citep[see][]{a} \\citep[e.g.,][p.~12]{a}',
      '\\citep[][]{a} \\cite[]{a} \\cite[42]{a} \\cite[12--14]{a} \\parencite[see][Sec.~3.2 and Fig.~4b]{a} \\citep[\\S~5]{a}',
    ].join('\n');
    expect(numbers(tex)).toEqual([]);
  });

  test('a note that says something else is prose: its numbers count, and its anchors stand', () => {
    expect(numbers('\\citep[by a factor of 4.73, see][]{k} and \\cite[reaching 97.3\\% accuracy]{k}')).toEqual(['4.73', '97.3']);
    expect(numbers('\\citep[see][with 12 runs]{k} \\cite[4.73]{k} \\citep[cf. Table 2, where 0.93]{k}')).toEqual(['12', '4.73', '0.93']);
    expect(numbers('\\citep[reaching \\svcclaim{node_b.accuracy}{0.973}][]{k}')).toEqual([]);
  });
});

describe('options of environments and footnotes', () => {
  test('center takes no option and multicols prints its bracket as a header: their brackets are text', () => {
    expect(numbers('\\begin{center}[speedup 4.73] x \\end{center} \\begin{multicols}{2}[Over 97.3\\% of runs] x \\end{multicols}')).toEqual(['4.73', '97.3']);
    expect(numbers('\\begin{multicols*}{3}[12 runs] x \\end{multicols*}')).toEqual(['12']);
  });

  test('placement, position and list options of environments stay options', () => {
    expect(numbers('\\begin{figure*}[t] \\begin{minipage}[t][3cm][b]{0.4\\textwidth} \\end{minipage} \\end{figure*} \\begin{enumerate}[start=3] \\end{enumerate}')).toEqual([]);
  });

  test('the mark of a footnote is structure; its text is prose', () => {
    expect(numbers('a\\footnote[4]{b} c\\footnotemark[2] d\\footnotetext[2]{e}')).toEqual([]);
    expect(numbers('a\\footnote[4]{over 0.93} \\footnotetext[2]{in 12 runs}')).toEqual(['0.93', '12']);
  });
});

describe('numbers in headings', () => {
  test('a decimal, a percentage or a ratio that opens a heading is a result, not its numbering', () => {
    expect(numbers('\\paragraph{97.3\\% fewer comparisons}\\subsection{4.73x faster}\\section[0.93 accuracy]{Results}')).toEqual(['97.3', '4.73', '0.93']);
    expect(numbers('\\section{97\\% fewer}\\subsection*{3x faster}\\subsection{120 runs}')).toEqual(['97', '3', '120']);
    // a hand-numbered subsection cannot be told from a result in its title
    expect(numbers('\\subsection*{3.1 Setup}')).toEqual(['3.1']);
  });
});

describe('scientific notation', () => {
  test('a number in e-notation is one number, with its value', () => {
    expect(numbers('a rate of 3.5e-4, then 1e6 steps and 2.1E+3 samples; $\\eta = 5e-5$')).toEqual(['3.5e-4', '1e6', '2.1E+3', '5e-5']);
    expect(numbers('It took 1e6.')).toEqual(['1e6']);
    expect(numberValue('3.5e-4')).toBe(0.00035);
    expect(numberValue('2.1E+3')).toBe(2100);
  });

  test('an e that starts a word or a unit after a number is not an exponent', () => {
    expect(numbers('0.5em and 3 epochs, 2e and e5')).toEqual(['3']);
  });
});
