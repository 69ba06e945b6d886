import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../../core/atomic.ts';
import type { Env } from '../../core/config/env-vars.ts';
import type { JobResults, JobSnapshot, ManifestEntry } from '../../schema/bench-api.ts';
import { reportDocument } from './document.ts';
import { figureFile } from './figure-files.ts';
import { reportFigures } from './figures.ts';
import { REPORT_FILES } from './files.ts';
import { harvest } from './harvest.ts';
import { renderHtml } from './html.ts';
import { LABELS, type ReportLanguage, TEX_SETUP } from './language.ts';
import { renderMarkdown } from './markdown.ts';
import { writePdf } from './pdf.ts';
import type { ReportFormat } from './query.ts';

export type AuditReportInput = {
  job: JobSnapshot;
  paper: ManifestEntry;
  results: JobResults;
  runDir: string;
  /** checked by the caller (parseReportQuery): by default `<registry>/reports/<job_id>` */
  outputRoot: string;
  languages: ReportLanguage[];
  formats: ReportFormat[];
  env: Env;
  signal?: AbortSignal;
};

export type AuditReport = {
  /** partial: some `<lang>/<fmt>` could not be made, each named in problems with why */
  status: 'ok' | 'partial';
  languages: string[];
  /** `<lang>/<fmt>` → the absolute path of the file made */
  paths: Record<string, string>;
  harvest: { ors_score: number; leaves_total: number; leaves_passed: number };
  problems?: Record<string, string>;
};

/**
 * The audit report of a completed job in each language and format asked for, under
 * `<outputRoot>/<lang>/` (report.md, report.html, report.pdf, figures/). Every file is written
 * whole or not at all. A PDF that cannot be made (LaTeX failed, TeX or the language's TeX
 * package missing) is named in problems and the rest is still made.
 */
export async function renderAuditReport(input: AuditReportInput): Promise<AuditReport> {
  const data = harvest(input.job, input.paper, input.results, input.runDir);
  const figures = reportFigures(data);
  const root = resolve(input.outputRoot);
  const paths: Record<string, string> = {};
  const problems: Record<string, string> = {};
  for (const lang of input.languages) {
    input.signal?.throwIfAborted();
    const langDir = join(root, lang);
    const doc = reportDocument(data, LABELS[lang]);
    // Markdown refers to the figures as files; HTML inlines them
    if (input.formats.includes('md')) for (const f of figures) writeFileAtomic(join(langDir, figureFile(f.name, 'svg')), f.svg, 0o644, false);
    for (const format of input.formats) {
      input.signal?.throwIfAborted();
      const file = join(langDir, REPORT_FILES[format]);
      if (format === 'md') writeFileAtomic(file, renderMarkdown(doc));
      else if (format === 'html') writeFileAtomic(file, renderHtml(doc, lang, figures));
      else {
        const problem = await writePdf(doc, figures, TEX_SETUP[lang], langDir, file, input.env);
        if (problem !== null) {
          problems[`${lang}/${format}`] = problem;
          continue;
        }
      }
      paths[`${lang}/${format}`] = file;
    }
  }
  const harvested = { ors_score: data.grade.ors_score, leaves_total: data.grade.leaves_total, leaves_passed: data.grade.leaves_passed };
  const partial = Object.keys(problems).length > 0;
  return { status: partial ? 'partial' : 'ok', languages: [...input.languages], paths, harvest: harvested, ...(partial ? { problems } : {}) };
}
