import { existsSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { checkpointFilePath, regularFileStat } from '../core/checkpoint/files-path.ts';
import { recordPages } from '../core/checkpoint/paper.ts';
import type { Env } from '../core/config/env-vars.ts';
import { definedEnv } from '../core/config/environment.ts';
import { ConflictError, InputError, NotFoundError, SvcError, UnavailableError } from '../core/errors.ts';
import { isFileAt, resolveInside, statOrNull } from '../core/paths.ts';
import { printable } from '../core/text.ts';
import { pdfPages } from './pdf.ts';
import { bibliographyProblem, missingFileHint } from './tex-problems.ts';
import { describeTexError, firstTexError, type TexWarning, texWarnings } from './tex-log.ts';

/** Where a run's paper draft lives, in the order it is looked for. */
export const PAPER_CANDIDATES = ['paper/full_paper.tex', 'full_paper.tex', 'paper/main.tex'];
export const COMPILE_TIMEOUT_MS = 180_000;
const LOG_TAIL_LINES = 40;
export const TEX_INSTALL_HINT = 'install it: apt-get install latexmk texlive-latex-base';

/** pdfLaTeX for papers; LuaLaTeX for documents in scripts pdfLaTeX cannot set (Japanese with luatexja). */
export type TexEngine = 'pdflatex' | 'lualatex';

/** A built PDF comes with its page count (null when pdfinfo cannot read it), which is recorded beside it (recordPages). */
export type CompileResult = { ok: true; pdf: string; pages: number | null; logTail: string[] } | { ok: false; error: string; logTail: string[] };

/** Directories with a compile under way: two latexmk runs in one directory would overwrite each other's aux files. */
const compiling = new Set<string>();

/** The .tex to compile: the one given (relative to the checkpoint), else the first paper draft found. */
export function findPaperTex(root: string, rel?: string): string {
  if (rel !== undefined) {
    const abs = checkpointFilePath(root, rel);
    if (extname(abs).toLowerCase() !== '.tex') throw new InputError(`'${rel}' is not a .tex file`, 'give the LaTeX source to compile');
    regularFileStat(abs, rel);
    return abs;
  }
  for (const candidate of PAPER_CANDIDATES) {
    if (isFileAt(join(root, candidate))) return checkpointFilePath(root, candidate);
  }
  throw new NotFoundError(`no paper to compile: none of ${PAPER_CANDIDATES.join(', ')} exists`, 'give the .tex to compile as path');
}

/**
 * Runs `latexmk -pdf` on a .tex in its own directory. A LaTeX error is a result (TeX's first `!`
 * line with the source file and line, a hint for a missing class or package, and the log's tail),
 * not an exception; a missing TeX installation is UnavailableError.
 * On timeout the whole process group is killed, so no pdflatex is left behind.
 */
export async function compileLatex(texAbs: string, opts: { env: Env; timeoutMs?: number; engine?: TexEngine }): Promise<CompileResult> {
  const latexmk = requireTool('latexmk', opts.env);
  const engine = opts.engine ?? 'pdflatex';
  requireTool(engine, opts.env);
  const dir = dirname(texAbs);
  if (compiling.has(dir)) throw new ConflictError(`a compile in ${dir} is already running`, 'wait for it to finish');
  compiling.add(dir);
  try {
    const built = await runLatexmk(latexmk, engine, texAbs, opts.env, opts.timeoutMs ?? COMPILE_TIMEOUT_MS);
    if (!built.ok) return built;
    // counted once, here: a summary of the run reads the record instead of running pdfinfo
    const pages = await pdfPages(built.pdf, opts.env).catch(() => null);
    if (pages !== null) recordPages(built.pdf, pages);
    return { ...built, pages };
  } finally {
    compiling.delete(dir);
  }
}

export type PaperBuild = { pdf_path: string; pages: number; warnings: TexWarning[] };

/**
 * compile_paper: builds `mainFile` of `texDir` with latexmk (pdfLaTeX, BibTeX as needed). A LaTeX
 * error throws, naming TeX's first `!` line and the source file and line; otherwise the PDF, its
 * page count and the warnings of the last pass.
 */
export async function compilePaper(texDir: string, mainFile: string, env: Env): Promise<PaperBuild> {
  if (!statOrNull(texDir)?.isDirectory()) throw new NotFoundError(`tex_dir '${printable(texDir)}' is not a directory`, "give the directory that holds the paper's .tex files");
  const main = resolveInside(texDir, mainFile, 'main_file');
  if (extname(main).toLowerCase() !== '.tex') throw new InputError(`main_file '${printable(mainFile)}' is not a .tex file`, 'give the .tex that holds \\documentclass');
  if (!isFileAt(main)) throw new NotFoundError(`main_file '${printable(mainFile)}' is not in ${texDir}`, 'give the .tex that holds \\documentclass');
  const built = await compileLatex(main, { env });
  if (!built.ok) throw new SvcError(built.error);
  const log = (await readLog(join(dirname(main), `${basename(main, extname(main))}.log`))) ?? '';
  return { pdf_path: built.pdf, pages: built.pages ?? (await pdfPages(built.pdf, env)), warnings: texWarnings(log) };
}

async function runLatexmk(latexmk: string, engine: TexEngine, texAbs: string, env: Env, timeoutMs: number): Promise<{ ok: true; pdf: string; logTail: string[] } | { ok: false; error: string; logTail: string[] }> {
  const dir = dirname(texAbs);
  const stem = basename(texAbs, extname(texAbs));
  // -norc: a latexmkrc is Perl, and anyone who can save a file beside the draft could plant one;
  // shell escape stays off for the same reason
  const args = ['-norc', engine === 'lualatex' ? '-pdflua' : '-pdf', `-${engine}=${engine} -file-line-error -no-shell-escape %O %S`, '-interaction=nonstopmode', '-halt-on-error', basename(texAbs)];
  const proc = Bun.spawn([latexmk, ...args], {
    cwd: dir,
    // log lines unwrapped, and error contexts long enough to show the text TeX stopped at
    // paranoid file access: the sources may hold model-written text, which must not read or write
    // files outside this directory (an \input of a key, an \openout over the bibliography)
    env: { ...toolEnv(env), max_print_line: '10000', error_line: '254', half_error_line: '238', openin_any: 'p', openout_any: 'p' },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
    // its own process group, so a timeout can stop latexmk and the pdflatex it started together
    detached: true,
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(proc.pid);
  }, timeoutMs);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);

  const output = `${stdout}\n${stderr}`;
  const log = (await readLog(join(dir, `${stem}.log`))) ?? output;
  const logTail = tailLines(log, LOG_TAIL_LINES);
  const pdf = join(dir, `${stem}.pdf`);
  if (timedOut) return { ok: false, error: `LaTeX failed: latexmk did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped`, logTail };
  if (code === 0 && existsSync(pdf)) return { ok: true, pdf, logTail };
  const error = firstTexError(log) ?? firstTexError(output);
  if (error) return { ok: false, error: `LaTeX failed at ${describeTexError(error)}${missingFileHint(error.message)}`, logTail };
  return { ok: false, error: `LaTeX failed: ${bibliographyProblem(output, await readLog(join(dir, `${stem}.blg`))) ?? `latexmk exited with code ${code}; see ${stem}.log`}`, logTail };
}

export function tailLines(text: string, n: number): string[] {
  const lines = text.split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1]?.trim() === '') lines.pop();
  return lines.slice(-n);
}

/** A TeX program (latexmk, pdflatex, bibtex, kpsewhich) as found on the PATH of `env`, or null. */
export function texTool(name: string, env: Env): string | null {
  return Bun.which(name, { PATH: env.PATH ?? '' });
}

function requireTool(name: string, env: Env): string {
  const found = texTool(name, env);
  if (!found) throw new UnavailableError(`${name} is not installed (not found on PATH)`, TEX_INSTALL_HINT);
  return found;
}

/**
 * The environment TeX runs with: where to find programs and TeX files, nothing else. Variables
 * that load code into Perl or the dynamic linker (PERL5OPT, LD_PRELOAD) and credentials stay out.
 */
function toolEnv(env: Env): Record<string, string> {
  return Object.fromEntries(Object.entries(definedEnv(env)).filter(([k]) => TOOL_ENV.test(k)));
}

const TOOL_ENV = /^(PATH|HOME|LANG|LC_[A-Z]+|TZ|TMPDIR|TEXINPUTS|BIBINPUTS|BSTINPUTS|TEXMF[A-Z]*|SOURCE_DATE_EPOCH)$/;

/**
 * TeX's log of the document. When latexmk finds nothing to do it leaves the previous log, which
 * still describes the document as it is.
 */
const readLog = (file: string): Promise<string | null> => Bun.file(file).text().catch(() => null);

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
