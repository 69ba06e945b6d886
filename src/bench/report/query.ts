import { join } from 'node:path';
import { InputError } from '../../core/errors.ts';
import { resolveInside } from '../../core/paths.ts';
import { printable } from '../../core/text.ts';
import { REPORT_LANGUAGES, type ReportLanguage } from './language.ts';

export const REPORT_FORMATS = ['pdf', 'html', 'md'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** Where a registry keeps its reports: `<registry>/reports/<job_id>` by default, and every output_root inside it. */
export const REPORTS_DIR = 'reports';

export type ReportQuery = { languages: ReportLanguage[]; formats: ReportFormat[]; outputRoot: string };

/**
 * The report query of GET /api/bench/run/<job_id>/report and `svc bench report`, checked.
 * output_root must lie inside `<registry>/reports/` (relative: resolved there): the renderer
 * writes into it, and outside the reports tree it could overwrite a paper's or another job's
 * files, or anything else the server can write.
 */
export function parseReportQuery(q: { languages?: string; formats?: string; output_root?: string }, where: { registryRoot: string; jobId: string }): ReportQuery {
  const reports = join(where.registryRoot, REPORTS_DIR);
  const outputRoot = q.output_root === undefined || q.output_root.trim() === '' ? join(reports, where.jobId) : resolveInside(reports, q.output_root.trim(), 'output_root');
  if (outputRoot === reports) throw new InputError(`output_root '${printable(q.output_root ?? '')}' is the reports directory itself`, `give a directory inside ${reports}, such as ${join(reports, where.jobId)}`);
  return {
    languages: commaList(q.languages, ['en'], REPORT_LANGUAGES, 'language'),
    formats: commaList(q.formats, [...REPORT_FORMATS], REPORT_FORMATS, 'format'),
    outputRoot,
  };
}

function commaList<T extends string>(raw: string | undefined, fallback: T[], choices: readonly T[], what: string): T[] {
  if (raw === undefined || raw.trim() === '') return fallback;
  const items = raw.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (items.length === 0) return fallback;
  const unknown = items.filter((s) => !(choices as readonly string[]).includes(s));
  if (unknown.length) throw new InputError(`unknown ${what}${unknown.length > 1 ? 's' : ''}: ${unknown.map((s) => `'${printable(s, 20)}'`).join(', ')}`, `choose from ${choices.join(', ')}`);
  return [...new Set(items as T[])];
}
