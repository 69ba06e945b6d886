import type { Config } from '../core/config/config.ts';
import { runCommand } from '../core/run-command.ts';
import { PDFTOTEXT_INSTALL_HINT, pdftotextPath } from '../paper/pdf-text.ts';
import { PROBE_TIMEOUT_MS } from '../sandbox/detect.ts';
import { pdftotextNeeded } from './needs.ts';
import { type DoctorRow, row } from './row.ts';

/** pdftotext reads the compiled paper for its review and the paper a reproduction starts from. */
export async function checkPdftotext(cfg: Config): Promise<DoctorRow[]> {
  const wf = cfg.workflow.workflow;
  const needed = pdftotextNeeded(wf);
  const path = pdftotextPath(cfg.env);
  if (path === null) return [row('pdf', 'pdftotext', needed ? 'fail' : 'warn', `pdftotext is not on PATH${needed ? '' : '; the paper and reproduction stages are off'}`, needed, PDFTOTEXT_INSTALL_HINT)];
  // it prints its version on stderr
  const r = await runCommand([path, '-v'], cfg.env, PROBE_TIMEOUT_MS);
  const version = r.stderr.split('\n').find((l) => /version/i.test(l))?.trim() ?? 'found';
  return [row('pdf', 'pdftotext', 'ok', `${version} (${path})`, needed)];
}
