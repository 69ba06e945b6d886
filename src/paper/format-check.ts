import { readFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import type { Env } from '../core/config/env-vars.ts';
import { InputError, NotFoundError } from '../core/errors.ts';
import { isFileAt } from '../core/paths.ts';
import { printable } from '../core/text.ts';
import type { ScienceData } from '../schema/science-data.ts';
import { claimProblems, numberValue, settingNumbers, unanchoredNumbers } from './claims.ts';
import { pdfPages } from './pdf.ts';
import { texWarnings } from './tex-log.ts';
import { missingFigures, texSources } from './tex-sources.ts';
import { referencesPage, type Venue } from './venues.ts';

export type FormatCheck = 'page_limit' | 'undefined_reference' | 'undefined_citation' | 'overfull_box' | 'missing_figure' | 'claim_anchor' | 'unanchored_number';
export type FormatFinding = { check: FormatCheck; severity: 'error' | 'warning'; message: string; file: string | null; line: number | null };
export type FormatReport = {
  venue: string;
  pdf_path: string;
  /** every page of the PDF */
  pages: number;
  /** the pages the limit counts: up to the one the references begin on (all, without svc's marker) */
  content_pages: number;
  page_limit: number | null;
  /** no finding is an error */
  passes: boolean;
  findings: FormatFinding[];
};

const COMPILE_FIRST = 'compile the paper with compile_paper first: check_format reads the files TeX leaves beside the PDF';

/**
 * check_format: a compiled paper against its venue. The PDF gives the page count (pdfinfo); the
 * .aux beside it where the references begin; the .log undefined references and citations and
 * overfull boxes; the .tex (with the files it inputs) missing figures, claim anchors that are not
 * filled or do not match `data`, and numbers without an anchor (a setting of one of `data`'s
 * configurations needs none). Errors fail the check; overfull
 * boxes and numbers without an anchor are warnings.
 */
export async function checkFormat(venue: Venue, pdfPath: string, env: Env, data: ScienceData | null): Promise<FormatReport> {
  if (extname(pdfPath).toLowerCase() !== '.pdf') throw new InputError(`pdf_path '${printable(pdfPath)}' is not a .pdf file`, 'give the PDF compile_paper made');
  if (!isFileAt(pdfPath)) throw new NotFoundError(`pdf_path '${printable(pdfPath)}' does not exist`, COMPILE_FIRST);
  const dir = dirname(pdfPath);
  const stem = join(dir, basename(pdfPath, extname(pdfPath)));
  const besides = (ext: string) => {
    if (!isFileAt(stem + ext)) throw new NotFoundError(`there is no ${basename(stem + ext)} beside ${pdfPath}`, COMPILE_FIRST);
    return `${stem}${ext}`;
  };
  const log = readFileSync(besides('.log'), 'utf8');
  const sources = texSources(besides('.tex'));
  const aux = isFileAt(`${stem}.aux`) ? readFileSync(`${stem}.aux`, 'utf8') : '';

  const findings: FormatFinding[] = [];
  const pages = await pdfPages(pdfPath, env);
  const contentPages = referencesPage(aux) ?? pages;
  if (venue.pageLimit !== null && contentPages > venue.pageLimit) {
    findings.push({ check: 'page_limit', severity: 'error', message: `${contentPages} pages before the references, over ${venue.id}'s limit of ${venue.pageLimit}`, file: null, line: null });
  }
  for (const w of texWarnings(log)) {
    if (w.kind === 'undefined_reference' || w.kind === 'undefined_citation') findings.push({ check: w.kind, severity: 'error', message: w.message, file: w.file, line: w.line });
    else if (w.kind === 'overfull_box') findings.push({ check: 'overfull_box', severity: 'warning', message: w.message, file: w.file, line: w.line });
  }
  for (const f of missingFigures(sources, dir)) findings.push({ check: 'missing_figure', severity: 'error', message: `figure '${f.figure}' is not there`, file: f.file, line: f.line });
  const settings = data ? settingNumbers(data) : new Set<number>();
  for (const s of sources) {
    for (const p of claimProblems(s.text, data)) findings.push({ check: 'claim_anchor', severity: 'error', message: claimMessage(p), file: s.name, line: p.line });
    for (const n of unanchoredNumbers(s.text).filter((x) => !settings.has(numberValue(x.number)))) {
      findings.push({ check: 'unanchored_number', severity: 'warning', message: `${n.number} has no claim anchor: write it as \\svcclaim{<key>} with the key of science_data.json it comes from (${n.context})`, file: s.name, line: n.line });
    }
  }
  return { venue: venue.id, pdf_path: pdfPath, pages, content_pages: contentPages, page_limit: venue.pageLimit, passes: findings.every((f) => f.severity !== 'error'), findings };
}

function claimMessage(p: ReturnType<typeof claimProblems>[number]): string {
  if (p.problem === 'unknown_key') return `claim anchor '${p.key}' is not a key of science_data.json values`;
  if (p.problem === 'unfilled') return `claim anchor '${p.key}' has no value: the paper tools fill it from science_data.json`;
  return `claim anchor '${p.key}' prints ${p.printed}, but science_data.json gives ${p.expected}`;
}
