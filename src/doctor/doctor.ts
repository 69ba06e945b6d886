import type { Config } from '../core/config/config.ts';
import { mergedEnv } from '../core/config/environment.ts';
import { checkContainers } from './containers.ts';
import { checkDisk } from './disk.ts';
import { checkExecutor } from './executor.ts';
import { checkLatex } from './latex.ts';
import { checkMemory } from './memory.ts';
import { checkModels } from './models.ts';
import { containersUsed, modelsNeeded, paperEnabled, pdftotextNeeded, registryNeeded } from './needs.ts';
import { checkPdftotext } from './pdftotext.ts';
import { checkRegistry } from './registry.ts';
import { type DoctorRow, guarded } from './row.ts';

export type { DoctorRow, DoctorStatus } from './row.ts';

/** What svc will use here and whether it works; `ok` is false when a row the workflow needs failed. */
export type DoctorReport = { rows: DoctorRow[]; ok: boolean };

export type DoctorOptions = {
  /** how long one area's check may take (default 15 s); its probes have shorter timeouts of their own */
  timeoutMs?: number;
  fetch?: typeof fetch;
};

const AREA_TIMEOUT_MS = 15_000;

/**
 * Every check at once, each held to its timeout, the rows in a fixed order of areas: model
 * backends, memory, executor, containers, LaTeX, pdftotext, disk, registry.
 */
export async function runDoctor(cfg: Config, opts: DoctorOptions = {}): Promise<DoctorReport> {
  // the keys in .env files count: a run reads them too
  const env = mergedEnv(cfg.env, cfg.dotenv);
  const fetchFn = opts.fetch ?? fetch;
  const ms = opts.timeoutMs ?? AREA_TIMEOUT_MS;
  const wf = cfg.workflow.workflow;
  // what each area's check would mark needed, for the row of a check that breaks (a run without memory carries on)
  const areas = await Promise.all([
    guarded('models', modelsNeeded(wf), ms, () => checkModels(cfg, env, fetchFn)),
    guarded('memory', false, ms, () => checkMemory(cfg, env, fetchFn)),
    guarded('executor', true, ms, () => checkExecutor(cfg, env)),
    guarded('containers', containersUsed(cfg), ms, () => checkContainers(cfg)),
    guarded('latex', paperEnabled(wf), ms, () => checkLatex(cfg)),
    guarded('pdf', pdftotextNeeded(wf), ms, () => checkPdftotext(cfg)),
    guarded('disk', true, ms, () => checkDisk(cfg)),
    guarded('registry', registryNeeded(wf, env), ms, () => checkRegistry(cfg, env, fetchFn)),
  ]);
  const rows = areas.flat();
  return { rows, ok: doctorOk(rows) };
}

/** The verdict: no row the workflow needs has failed. */
export function doctorOk(rows: readonly DoctorRow[]): boolean {
  return !rows.some((r) => r.needed && r.status === 'fail');
}
