import { expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileLatex } from '../../../src/paper/compile.ts';
import { escapeLatex, latexLiteral, latexText } from '../../../src/paper/latex-text.ts';
import { lacks } from '../../support/components.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const NASTY = 'a_b 50% #1 & {x} $5 ~ ^ \\n <i> | 2×3 ≈ 6 → done… “q” café 🙂';

test('specials escaped, symbols and accented letters as commands, in plain ASCII; what no command stands for left out and counted', () => {
  expect(latexText(NASTY)).toEqual({
    latex: "a\\_b 50\\% \\#1 \\& \\textbraceleft{}x\\textbraceright{} \\$5 \\textasciitilde{} \\textasciicircum{} \\textbackslash{}n \\textless{}i\\textgreater{} \\textbar{} 2$\\times$3 $\\approx$ 6 $\\rightarrow$ done\\ldots{} ``q'' caf{\\'{e}}",
    dropped: 1,
  });
  // prose keeps its paragraphs; spaces inside one are one
  expect(escapeLatex('  two\n\nlines\t here ')).toBe('two\n\nlines here');
});

test.skipIf(lacks('latex') || lacks('poppler'))('pdflatex prints the text as it was written', async () => {
  const dir = tempDir();
  try {
    const tex = join(dir, 't.tex');
    writeFileSync(tex, `\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\begin{document}\n${escapeLatex(NASTY)}\n\\end{document}\n`);
    expect(await compileLatex(tex, { env: { PATH: process.env.PATH, HOME: dir } })).toMatchObject({ ok: true });
    const text = Bun.spawnSync(['pdftotext', join(dir, 't.pdf'), '-']).stdout.toString();
    expect(text).toContain('a_b 50% #1 & {x} $5');
    expect(text).toContain('<i> | 2×3 ≈ 6 → done');
    expect(text).toContain('café');
  } finally {
    removeDir(dir);
  }
});

test('latexLiteral: every character as itself, spaces kept; under pdfLaTeX a character no command stands for as its code point', () => {
  expect(latexLiteral('\\input{/etc/passwd}  50% [a] -- `` \'\' 山 café\n', false)).toBe(
    "\\textbackslash{}input\\{/\\allowbreak{}etc/\\allowbreak{}passwd\\}  50\\% {[}a{]} -{}-{} \\textasciigrave{}\\textasciigrave{} \\textquotesingle{}\\textquotesingle{} {[}U+5C71{]} caf{\\'{e}} ",
  );
  expect(latexLiteral('山 café \u0007', true)).toBe('山 café ');
});
