// What the paper takes from the model: prose, never a file read or written, a redefinition or a
// number of its own.
import { expect, test } from 'bun:test';
import { join, resolve } from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { compileLatex } from '../../../src/paper/compile.ts';
import { lacks } from '../../support/components.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { paperFacts, writtenProblem } from '../../../src/paper/writing-facts.ts';

const data = JSON.parse(readFileSync(join(resolve(import.meta.dir, '../../fixtures/science-data'), 'sorting.json'), 'utf8'));
const facts = paperFacts(data, null, null);

test('prose with anchors is taken', () => {
  expect(writtenProblem('Shell sort made \\svcclaim{best.comparisons} comparisons.', facts)).toBeNull();
});

test('a section that would read or write a file, or redefine the paper, is refused, saying why', () => {
  for (const bad of ['\\input{/home/u/.ssh/id_ed25519}', '\\include{x}', '\\openin1=/etc/passwd', '\\immediate\\write18{id}', '\\includegraphics{/etc/key.pdf}', '\\def\\x{1}', '\\newcommand{\\acc}{97}', '\\catcode`\\^=7', '^^5cinput{x}', '\\csname input\\endcsname{x}', '\n%% svc:code-availability\n']) {
    expect([bad, writtenProblem(`Text. ${bad} More text.`, facts)]).toEqual([bad, expect.stringMatching(/^it has .+, which svc does not take from a section/)]);
  }
});

test('a number the model wrote is refused', () => {
  expect(writtenProblem('Shell sort made 97.2% fewer comparisons.', facts)).not.toBeNull();
});

test.skipIf(lacks('latex'))('LaTeX cannot read a file outside its directory, whatever the source says', async () => {
  const dir = tempDir();
  try {
    writeFileSync(join(dir, 't.tex'), '\\documentclass{article}\n\\begin{document}\n\\input{/etc/hostname}\n\\end{document}\n');
    const r = await compileLatex(join(dir, 't.tex'), { env: { PATH: process.env.PATH, HOME: dir } });
    expect(r.ok).toBe(false);
    expect(JSON.stringify(r)).not.toContain(readFileSync('/etc/hostname', 'utf8').trim());
  } finally {
    removeDir(dir);
  }
});

test('a number in math or in brackets after a command is refused like one in the prose', () => {
  for (const bad of ['It reached $0.93$.', 'It reached \\[ 0.93 \\]', 'It reached \\textbf[0.93]{x}.', 'It ran with \\texttt{--lr 0.05}.']) expect([bad, writtenProblem(bad, facts)]).toEqual([bad, expect.stringMatching(/^it states .+ as digits/)]);
});
