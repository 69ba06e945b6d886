import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConflictError, InputError, NotFoundError, SvcError, UnavailableError } from '../../../src/core/errors.ts';
import { paperFacts } from '../../../src/core/checkpoint/paper.ts';
import { compileLatex, compilePaper, findPaperTex, tailLines } from '../../../src/paper/compile.ts';
import { writePaper } from '../../support/paper.ts';
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

  test.skipIf(lacks('latex') || lacks('pdftools'))("the page count is recorded beside the PDF with the PDF's size and mtime, and a run's summary reads it", async () => {
    writeFileSync(join(dir, 'full_paper.tex'), '\\documentclass{article}\n\\begin{document}\nOne.\\newpage\nTwo.\n\\end{document}\n');
    const result = await compileLatex(join(dir, 'full_paper.tex'), { env });
    expect(result).toMatchObject({ ok: true, pages: 2 });
    const st = statSync(join(dir, 'full_paper.pdf'));
    expect(JSON.parse(readFileSync(join(dir, 'full_paper.pages.json'), 'utf8'))).toEqual({ pdf: 'full_paper.pdf', pages: 2, size: st.size, mtime_ms: st.mtimeMs });
    expect(paperFacts(dir)?.pages).toBe(2);
  });

  test.skipIf(lacks('latex'))('a LaTeX error is a result with the first ! line and its source file and line', async () => {
    writeFileSync(join(dir, 'paper', 'full_paper.tex'), BROKEN);
    const result = await compileLatex(join(dir, 'paper', 'full_paper.tex'), { env });
    expect(result).toMatchObject({ ok: false, error: 'LaTeX failed at full_paper.tex:3: ! Undefined control sequence. (TeX stopped at: \\undefinedmacro)' });
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
  test('tailLines: the last lines, trailing blanks dropped', () => {
    expect(tailLines('a\nb\nc\n\n', 2)).toEqual(['b', 'c']);
    expect(tailLines('a\r\nb', 5)).toEqual(['a', 'b']);
  });
});

describe('compilePaper', () => {
  test.skipIf(lacks('venues') || lacks('pdftools'))('a LaTeX error in a section file: the first ! line with that file and line', async () => {
    writePaper(dir, 'neurips', {
      body: '\\section{Method}\n\\input{sections/method}\n',
      files: { 'sections/method.tex': 'We sort.\n\nLine three is fine.\nLine four calls \\undefinedmacro here.\n' },
    });
    const err = await compilePaper(dir, 'main.tex', env).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SvcError);
    expect((err as Error).message).toBe('LaTeX failed at sections/method.tex:4: ! Undefined control sequence. (TeX stopped at: Line four calls \\undefinedmacro)');
  });

  test.skipIf(lacks('venues'))("a class TeX cannot find: the error names the package to install", async () => {
    writePaper(dir, 'acm');
    // TEXINPUTS without a trailing colon is TeX's whole search path for classes: acmart is not on it
    const err = await compilePaper(dir, 'main.tex', { ...env, TEXINPUTS: dir }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/^LaTeX failed at main\.tex:\d+: ! LaTeX Error: File `acmart\.cls' not found\. \(install it: apt-get install texlive-publishers\)$/);
    writeFileSync(join(dir, 'main.tex'), '\\documentclass{svcnosuchclass}\n\\begin{document}\nx\n\\end{document}\n');
    expect(((await compilePaper(dir, 'main.tex', env).catch((e: unknown) => e)) as Error).message).toContain("File `svcnosuchclass.cls' not found. (no TeX package here provides svcnosuchclass.cls");
    expect(existsSync(join(dir, 'main.pdf'))).toBe(false);
  });

  test.skipIf(lacks('latex'))('a bibliography database that is not there', async () => {
    writeFileSync(join(dir, 'main.tex'), '\\documentclass{article}\n\\begin{document}\nSee \\cite{x}.\n\\bibliographystyle{plain}\n\\bibliography{nothere}\n\\end{document}\n');
    expect(((await compilePaper(dir, 'main.tex', env).catch((e: unknown) => e)) as Error).message).toBe('LaTeX failed: the bibliography database nothere.bib does not exist (\\bibliography names it)');
  });

  test('bad arguments: the directory, the main file', async () => {
    const fail = (d: string, m: string) => compilePaper(d, m, env).then(() => new Error('compiled'), (e: unknown) => e as Error);
    expect((await fail(join(dir, 'nope'), 'main.tex')).message).toBe(`tex_dir '${join(dir, 'nope')}' is not a directory`);
    expect(await fail(dir, 'main.tex')).toBeInstanceOf(NotFoundError);
    expect((await fail(dir, 'main.tex')).message).toBe(`main_file 'main.tex' is not in ${dir}`);
    writeFileSync(join(dir, 'notes.md'), 'x');
    expect((await fail(dir, 'notes.md')).message).toBe("main_file 'notes.md' is not a .tex file");
    expect((await fail(dir, '../x.tex')).message).toContain('is outside');
  });
});
