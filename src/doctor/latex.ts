import type { Config } from '../core/config/config.ts';
import { lastLine, runCommand } from '../core/run-command.ts';
import { TEX_INSTALL_HINT, texTool } from '../paper/compile.ts';
import type { Venue } from '../paper/venues.ts';
import { PROBE_TIMEOUT_MS } from '../sandbox/detect.ts';
import { paperEnabled, venuesUsed } from './needs.ts';
import { type DoctorRow, row } from './row.ts';

const AREA = 'latex';
const PROGRAMS = ['latexmk', 'pdflatex', 'bibtex'] as const;

/** The programs the paper compile runs, and the class of each venue the paper stages write for (`kpsewhich <class>.cls`). */
export async function checkLatex(cfg: Config): Promise<DoctorRow[]> {
  const wf = cfg.workflow.workflow;
  const needed = paperEnabled(wf);
  const env = cfg.env;
  const absent = (what: string, fix: string) => row(AREA, what, needed ? 'fail' : 'warn', `${what} is not on PATH${needed ? '' : '; the paper stages are off'}`, needed, fix);
  const rows = PROGRAMS.map((p) => {
    const found = texTool(p, env);
    return found === null ? absent(p, TEX_INSTALL_HINT) : row(AREA, p, 'ok', found, needed);
  });
  const kpsewhich = texTool('kpsewhich', env);
  const classes = uniqueClasses(venuesUsed(wf));
  if (kpsewhich === null) return [...rows, absent('kpsewhich', TEX_INSTALL_HINT)];
  for (const [cls, venue] of classes) {
    const r = await runCommand([kpsewhich, `${cls}.cls`], env, PROBE_TIMEOUT_MS);
    const file = r.code === 0 ? lastLine(r.stdout) : null;
    if (file !== null) rows.push(row(AREA, `${cls}.cls`, 'ok', `${file} (venue ${venue.id})`, needed));
    else rows.push(row(AREA, `${cls}.cls`, needed ? 'fail' : 'warn', `TeX does not find ${cls}.cls, the class of venue ${venue.id}`, needed, `install it: apt-get install ${venue.debianPackage}`));
  }
  return rows;
}

/** Each document class once, with the first venue that uses it. */
function uniqueClasses(venues: Venue[]): Map<string, Venue> {
  const out = new Map<string, Venue>();
  for (const v of venues) if (!out.has(v.documentClass)) out.set(v.documentClass, v);
  return out;
}
