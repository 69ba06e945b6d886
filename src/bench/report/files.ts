import { basename, join } from 'node:path';
import { InputError, NotFoundError } from '../../core/errors.ts';
import { isFileAt, isPlainName, resolveInside } from '../../core/paths.ts';
import { printable } from '../../core/text.ts';
import { FIGURES_DIR } from './figure-files.ts';
import { REPORT_LANGUAGES } from './language.ts';
import type { ReportFormat } from './query.ts';

export const REPORT_FILES: Record<ReportFormat, string> = { md: 'report.md', html: 'report.html', pdf: 'report.pdf' };

const CONTENT_TYPES: Record<string, string> = {
  md: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
  pdf: 'application/pdf',
  svg: 'image/svg+xml',
  png: 'image/png',
};

/** The URL path a report file is fetched from: `/api/bench/run/<job_id>/report/<lang>/<file>`. */
export function reportFileUrl(jobId: string, lang: string, file: string): string {
  return `/api/bench/run/${encodeURIComponent(jobId)}/report/${encodeURIComponent(lang)}/${file.split('/').map(encodeURIComponent).join('/')}`;
}

/** The response's download_urls: each `<lang>/<fmt>` of the renderer's paths, as the URL path its file is fetched from. */
export function downloadUrls(jobId: string, paths: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(paths).map(([key, file]) => {
      const lang = key.split('/')[0] as string;
      return [key, reportFileUrl(jobId, lang, basename(file))];
    }),
  );
}

/**
 * The file a report URL names, for GET /api/bench/run/<job_id>/report/<lang>/<file>: one of the
 * report files or a figure (`figures/<name>`, which report.md refers to), inside
 * `<outputRoot>/<lang>/`, and there. Anything else (another language, `..`, another directory, a
 * link leading out) is refused.
 */
export function reportFile(outputRoot: string, lang: string, file: string): { path: string; contentType: string } {
  if (!(REPORT_LANGUAGES as readonly string[]).includes(lang)) throw new InputError(`unknown language '${printable(lang, 20)}'`, `choose from ${REPORT_LANGUAGES.join(', ')}`);
  const parts = file.split('/');
  const isReport = parts.length === 1 && Object.values(REPORT_FILES).includes(file);
  const isFigure = parts.length === 2 && parts[0] === FIGURES_DIR && isPlainName(parts[1] as string) && /\.(svg|png)$/.test(parts[1] as string);
  if (!isReport && !isFigure) throw new InputError(`'${printable(file)}' is not a report file`, `ask for ${Object.values(REPORT_FILES).join(', ')} or ${FIGURES_DIR}/<figure>.svg`);
  const path = resolveInside(outputRoot, join(lang, file), 'report file');
  if (!isFileAt(path)) throw new NotFoundError(`no ${file} in the ${lang} report`, 'make the report first: GET /api/bench/run/<job_id>/report with this language and format');
  return { path, contentType: CONTENT_TYPES[file.slice(file.lastIndexOf('.') + 1)] as string };
}
