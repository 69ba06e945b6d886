import type { Env } from '../core/config/env-vars.ts';
import { SvcError, UnavailableError } from '../core/errors.ts';
import { lastLine, runCommand } from '../core/run-command.ts';

const PDFINFO_TIMEOUT_MS = 30_000;

/** The page count of a PDF, as pdfinfo (poppler-utils) reads it. */
export async function pdfPages(pdf: string, env: Env): Promise<number> {
  const pdfinfo = Bun.which('pdfinfo', { PATH: env.PATH ?? '' });
  if (!pdfinfo) throw new UnavailableError('pdfinfo is not installed (not found on PATH)', 'install it: apt-get install poppler-utils');
  const r = await runCommand([pdfinfo, pdf], { PATH: env.PATH, LANG: 'C' }, PDFINFO_TIMEOUT_MS);
  const pages = /^Pages:\s+(\d+)\s*$/m.exec(r.stdout)?.[1];
  if (r.code !== 0 || pages === undefined) throw new SvcError(`pdfinfo cannot read ${pdf}: ${r.timedOut ? 'it did not answer' : (lastLine(r.stderr) ?? `exit code ${r.code}`)}`);
  return Number(pages);
}
