import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConflictError, InputError, NotFoundError, UnavailableError } from '../../../src/core/errors.ts';
import { compileLatex, findPaperTex, firstError, tailLines } from '../../../src/paper/compile.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { lacks } from '../../support/components.ts';

const GOOD = '\\documentclass{article}\n\\begin{document}\nHello, paper.\n\\end{document}\n';
const BROKEN = '\\documentclass{article}\n\\begin{document}\n\\undefinedmacro\n\\end{document}\n';
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' };

let dir: string;
beforeEach(() => {
  dir = tempDir();
  mkdirSync(join(dir, 'paper'));
});
afterEach(() => removeDir(dir));

/** Processes whose working directory is inside `root`: what a compile there could leave running. */
function processesIn(root: string): number[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readlinkSync(`/proc/${p}/cwd`).startsWith(root);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('findPaperTex', () => {
  test('the first draft found, in the reference order', () => {
    writeFileSync(join(dir, 'paper', 'main.tex'), GOOD);
    expect(findPaperTex(dir)).toBe(join(dir, 'paper', 'main.tex'));
    writeFileSync(join(dir, 'full_paper.tex'), GOOD);
    expect(findPaperTex(dir)).toBe(join(dir, 'full_paper.tex'));
    writeFileSync(join(dir, 'paper', 'full_paper.tex'), GOOD);
    expect(findPaperTex(dir)).toBe(join(dir, 'paper', 'full_paper.tex'));
  });

  test('none: not found, naming where it looked', () => {
    expect(() => findPaperTex(dir)).toThrow('none of paper/full_paper.tex, full_paper.tex, paper/main.tex exists');
  });

  test('a given path must be an existing .tex inside the checkpoint', () => {
    writeFileSync(join(dir, 'paper', 'draft.tex'), GOOD);
    writeFileSync(join(dir, 'notes.md'), 'x');
    expect(findPaperTex(dir, 'paper/draft.tex')).toBe(join(dir, 'paper', 'draft.tex'));
    expect(() => findPaperTex(dir, 'notes.md')).toThrow('is not a .tex file');
    expect(() => findPaperTex(dir, 'missing.tex')).toThrow(NotFoundError);
    expect(() => findPaperTex(dir, '../x.tex')).toThrow(InputError);
    expect(() => findPaperTex(dir, '/etc/x.tex')).toThrow(InputError);
  });
});

describe('compileLatex', () => {
  test.skipIf(lacks('latex'))('a good document gives a PDF and the log tail', async () => {
    writeFileSync(join(dir, 'paper', 'full_paper.tex'), GOOD);
    const result = await compileLatex(join(dir, 'paper', 'full_paper.tex'), { env });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.pdf).toBe(join(dir, 'paper', 'full_paper.pdf'));
    expect(existsSync(result.pdf)).toBe(true);
    expect(result.logTail.length).toBeGreaterThan(0);
    expect(result.logTail.join('\n')).toContain('full_paper.pdf');
  });

  test.skipIf(lacks('latex'))('a LaTeX error is a result with the first ! line and its source line', async () => {
    writeFileSync(join(dir, 'paper', 'full_paper.tex'), BROKEN);
    const result = await compileLatex(join(dir, 'paper', 'full_paper.tex'), { env });
    expect(result).toMatchObject({ ok: false, error: 'LaTeX failed: Undefined control sequence. (line 3)' });
    expect(result.logTail.join('\n')).toContain('\\undefinedmacro');
  });

  test.skipIf(lacks('latex'))('a document that never ends is stopped at the timeout, latexmk and pdflatex together', async () => {
    writeFileSync(join(dir, 'paper', 'loop.tex'), '\\def\\x{\\x}\\x\n');
    const result = await compileLatex(join(dir, 'paper', 'loop.tex'), { env, timeoutMs: 1500 });
    expect(result).toMatchObject({ ok: false, error: 'LaTeX failed: latexmk did not finish within 2 s and was stopped' });
    // the group was killed with SIGKILL; give the kernel a moment to reap
    for (let i = 0; i < 50 && processesIn(dir).length > 0; i++) await Bun.sleep(100);
    expect(processesIn(dir)).toEqual([]);
  });

  test.skipIf(lacks('latex'))('a second compile in the same directory while one runs is refused', async () => {
    writeFileSync(join(dir, 'paper', 'full_paper.tex'), GOOD);
    const tex = join(dir, 'paper', 'full_paper.tex');
    const [first, second] = await Promise.allSettled([compileLatex(tex, { env }), compileLatex(tex, { env })]);
    expect(first.status).toBe('fulfilled');
    expect(second.status).toBe('rejected');
    expect((second as PromiseRejectedResult).reason).toBeInstanceOf(ConflictError);
  });

  test('latexmk missing: unavailable, naming it and the package to install', async () => {
    writeFileSync(join(dir, 'paper', 'full_paper.tex'), GOOD);
    const empty = join(dir, 'bin');
    mkdirSync(empty);
    const err = await compileLatex(join(dir, 'paper', 'full_paper.tex'), { env: { PATH: empty } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnavailableError);
    expect((err as UnavailableError).message).toBe('latexmk is not installed (not found on PATH)');
    expect((err as UnavailableError).hint).toContain('apt-get install latexmk texlive-latex-base');
  });

  test.skipIf(lacks('latex'))('pdflatex missing while latexmk is there: unavailable, naming pdflatex', async () => {
    writeFileSync(join(dir, 'paper', 'full_paper.tex'), GOOD);
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    const latexmk = Bun.which('latexmk');
    expect(latexmk).not.toBeNull();
    symlinkSync(latexmk ?? '', join(bin, 'latexmk'));
    const err = await compileLatex(join(dir, 'paper', 'full_paper.tex'), { env: { PATH: bin } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnavailableError);
    expect((err as UnavailableError).message).toContain('pdflatex');
    expect(existsSync(join(dir, 'paper', 'full_paper.pdf'))).toBe(false);
  });
});

describe('reading the TeX log', () => {
  test('firstError: the first ! line, with l.<n> when TeX gives it', () => {
    expect(firstError('This is pdfTeX\n! Missing $ inserted.\n<inserted text>\nl.12 a_b\n! Emergency stop.')).toBe('Missing $ inserted. (line 12)');
    expect(firstError('! LaTeX Error: File `nope.sty\' not found.')).toBe("LaTeX Error: File `nope.sty' not found.");
    expect(firstError('all fine\n')).toBeNull();
  });

  test('tailLines: the last lines, trailing blanks dropped', () => {
    expect(tailLines('a\nb\nc\n\n', 2)).toEqual(['b', 'c']);
    expect(tailLines('a\r\nb', 5)).toEqual(['a', 'b']);
  });
});
