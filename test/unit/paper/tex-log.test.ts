import { describe, expect, test } from 'bun:test';
import { describeTexError, firstTexError, logLines, texWarnings } from '../../../src/paper/tex-log.ts';
import { bibliographyProblem, missingFileHint } from '../../../src/paper/tex-problems.ts';

describe('the first error of a TeX log', () => {
  test('with -file-line-error: the file and line, the ! line, and the text TeX stopped at', () => {
    const log = '(./main.tex (./sections/method.tex\n./sections/method.tex:3: Undefined control sequence.\nl.3 Line three \\undefinedmacro\n                               here.\n';
    const e = firstTexError(log);
    expect(e).toEqual({ message: '! Undefined control sequence.', file: 'sections/method.tex', line: 3, context: 'Line three \\undefinedmacro' });
    expect(describeTexError(e as NonNullable<typeof e>)).toBe('sections/method.tex:3: ! Undefined control sequence. (TeX stopped at: Line three \\undefinedmacro)');
  });

  test('a ! line without a place takes the next located one, but not its context', () => {
    const log = "! LaTeX Error: File `nosuchclass.cls' not found.\n\nType X to quit or <RETURN> to proceed,\n./main.tex:2: Emergency stop.\n<read *>\nl.2 \\begin\n";
    expect(firstTexError(log)).toEqual({ message: "! LaTeX Error: File `nosuchclass.cls' not found.", file: 'main.tex', line: 2, context: null });
  });

  test('a classic log: the ! line with the l.<n> line number', () => {
    const e = firstTexError('This is pdfTeX\n! Missing $ inserted.\n<inserted text>\nl.12 a_b\n! Emergency stop.');
    expect(e).toEqual({ message: '! Missing $ inserted.', file: null, line: 12, context: 'a_b' });
    expect(describeTexError(e as NonNullable<typeof e>)).toBe('line 12: ! Missing $ inserted. (TeX stopped at: a_b)');
    expect(firstTexError('all fine\n')).toBeNull();
  });

  test('a log wrapped at 79 characters is read as TeX meant it', () => {
    const long = `./sections/a-rather-long-directory-name/and-a-long-file-name-for-the-method.tex:12: Undefined control sequence.`;
    const wrapped = `${long.slice(0, 79)}\n${long.slice(79)}\nl.12 \\foo\n`;
    expect(logLines(wrapped)[0]).toBe(long);
    expect(firstTexError(wrapped)?.line).toBe(12);
  });
});

describe('warnings', () => {
  test('undefined references and citations, overfull boxes and other warnings, each once, with the file TeX was reading', () => {
    const log = [
      '(./main.tex (/usr/share/texlive/texmf-dist/tex/latex/base/article.cls',
      'Document Class: article 2022/07/02 v1.4n Standard LaTeX document class',
      '(/usr/share/texlive/texmf-dist/tex/latex/base/size10.clo)) (./sections/intro.tex',
      "LaTeX Warning: Reference `fig:none' on page 1 undefined on input line 3.",
      "LaTeX Warning: Citation `nosuch' on page 1 undefined on input line 4.",
      'Overfull \\hbox (12.3pt too wide) in paragraph at lines 7--9',
      '[]\\T1/ptm/m/n/10 A long line (with a paren',
      ')',
      "Package natbib Warning: Citation `other' on page 2 undefined on input line 5.",
      "LaTeX Warning: Reference `fig:none' on page 1 undefined on input line 3.",
      'Class acmart Warning: You do not have the libertine package installed.',
      '(acmart)               Please upgrade your TeX on input line 848.',
      'LaTeX Warning: There were undefined references.',
    ].join('\n');
    expect(texWarnings(log)).toEqual([
      { kind: 'undefined_reference', message: "reference 'fig:none' is undefined", file: 'sections/intro.tex', line: 3 },
      { kind: 'undefined_citation', message: "citation 'nosuch' is undefined", file: 'sections/intro.tex', line: 4 },
      { kind: 'overfull_box', message: 'Overfull \\hbox (12.3pt too wide) in paragraph at lines 7--9', file: 'sections/intro.tex', line: 7 },
      { kind: 'undefined_citation', message: "citation 'other' is undefined", file: 'sections/intro.tex', line: 5 },
      { kind: 'other', message: 'Class acmart Warning: You do not have the libertine package installed. Please upgrade your TeX on input line 848.', file: 'sections/intro.tex', line: 848 },
    ]);
  });
});

describe('what to do about a failed build', () => {
  test('a missing class or package names the Debian package that has it', () => {
    expect(missingFileHint("! LaTeX Error: File `acmart.cls' not found.")).toBe(' (install it: apt-get install texlive-publishers)');
    expect(missingFileHint("! LaTeX Error: File `xstring.sty' not found.")).toBe(' (install it: apt-get install texlive-latex-extra)');
    expect(missingFileHint("! LaTeX Error: File `nosuch.cls' not found.")).toContain('no TeX package here provides nosuch.cls');
    expect(missingFileHint("! LaTeX Error: File `fig1.png' not found.")).toContain('a figure file');
    expect(missingFileHint('! Undefined control sequence.')).toBe('');
  });

  test("BibTeX's problems: a database that is not there, a style it cannot open", () => {
    expect(bibliographyProblem("Latexmk: I WON'T RUN 'bibtex main' because I don't find the following files:\n  missing.bib\n", null)).toBe(
      'the bibliography database missing.bib does not exist (\\bibliography names it)',
    );
    const blg = "The top-level auxiliary file: main.aux\nI couldn't open style file IEEEtran.bst\n---line 3 of file main.aux\n : \\bibstyle{IEEEtran\n";
    expect(bibliographyProblem('', blg)).toBe("BibTeX: I couldn't open style file IEEEtran.bst (line 3 of file main.aux) (install it: apt-get install texlive-publishers)");
    expect(bibliographyProblem('', 'fine\n')).toBeNull();
  });
});
