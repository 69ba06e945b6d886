import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { svgToPng } from '../../chart/png.ts';
import { writeFileAtomic } from '../../core/atomic.ts';
import type { Env } from '../../core/config/env-vars.ts';
import { definedEnv } from '../../core/config/environment.ts';
import { UnavailableError } from '../../core/errors.ts';
import { compileLatex } from '../../paper/compile.ts';
import type { ReportDocument } from './document.ts';
import { figureFile } from './figure-files.ts';
import type { Figure } from './figures.ts';
import type { TexSetup } from './language.ts';
import { renderLatex } from './latex.ts';

/** Where a language's LaTeX source, figures as PNG, and TeX's log stay: beside the PDF, for a failed build to be looked into. */
export const LATEX_DIR = 'latex';
const TEX_FILE = 'report.tex';

/**
 * Why this language's PDF cannot be typeset here, with the package to install; null when it can.
 * The package's file is looked up with kpsewhich on the PATH TeX runs with.
 */
function texSetupProblem(setup: TexSetup, env: Env): string | null {
  if (!setup.requires) return null;
  const { file, debian } = setup.requires;
  const kpsewhich = Bun.which('kpsewhich', { PATH: env.PATH ?? '' });
  const found = kpsewhich ? Bun.spawnSync([kpsewhich, file], { env: definedEnv(env), stdout: 'pipe', stderr: 'ignore' }) : null;
  if (found?.exitCode === 0 && found.stdout.toString().trim() !== '') return null;
  return `${file} is not installed (${kpsewhich ? 'kpsewhich does not find it' : 'kpsewhich is not on PATH'}): install it with apt-get install ${debian}`;
}

/**
 * The PDF of one language at `pdfPath`, typeset in `langDir/latex/`. The PDF is copied to its
 * place whole only once LaTeX has succeeded. Returns why there is no PDF (LaTeX failed: its error
 * and the log's path; TeX or the language's package is not installed: what to install), or null when it was made.
 */
export async function writePdf(doc: ReportDocument, figures: Figure[], setup: TexSetup, langDir: string, pdfPath: string, env: Env): Promise<string | null> {
  const dir = join(langDir, LATEX_DIR);
  // a PDF of an earlier build would pass for this one's if this one fails
  rmSync(pdfPath, { force: true });
  const missing = texSetupProblem(setup, env);
  if (missing !== null) return missing;
  mkdirSync(dir, { recursive: true });
  for (const f of figures) writeFileAtomic(join(dir, figureFile(f.name, 'png')), (await svgToPng(f.svg)).bytes, 0o644, false);
  const tex = join(dir, TEX_FILE);
  writeFileAtomic(tex, renderLatex(doc, setup), 0o644, false);
  let built: Awaited<ReturnType<typeof compileLatex>>;
  try {
    built = await compileLatex(tex, { env, engine: setup.engine });
  } catch (err) {
    if (err instanceof UnavailableError) return err.hint ? `${err.message}: ${err.hint}` : err.message;
    throw err;
  }
  if (!built.ok) return `${built.error}; see ${join(dir, 'report.log')}`;
  writeFileAtomic(pdfPath, readFileSync(built.pdf));
  return null;
}
