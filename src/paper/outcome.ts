import { join } from 'node:path';
import { readJsonObject } from '../core/json-object.ts';
import { isFileAt } from '../core/paths.ts';
import { isMapping } from '../core/values.ts';
import { FINALIZE_RECORD } from './finalize.ts';

export const REVIEW_REPORT = 'review_report.json';

/**
 * The review in one line, from review_report.json: the rubric, the overall score on its scale,
 * the decision and every other dimension as value/top of scale. Null without a readable report.
 */
export function reviewLine(checkpointDir: string): string | null {
  let r: Record<string, unknown> | null;
  try {
    r = readJsonObject(join(checkpointDir, REVIEW_REPORT));
  } catch {
    return null;
  }
  if (!r) return null;
  const dims = (Array.isArray(r.score_dimensions) ? r.score_dimensions : []).filter(isMapping).flatMap((d) => {
    const scale = Array.isArray(d.scale) ? d.scale : [];
    return typeof d.name === 'string' && typeof d.value === 'number' ? [{ name: d.name, value: d.value, top: typeof scale[1] === 'number' ? scale[1] : null }] : [];
  });
  const overall = typeof r.overall_score === 'number' ? r.overall_score : null;
  const overallDim = dims.find((d) => d.value === overall && /overall|rating|score/i.test(d.name)) ?? null;
  const parts = [
    `${typeof r.rubric_id === 'string' ? r.rubric_id : 'unknown'} rubric`,
    overall === null ? 'no overall score' : `overall ${overall}${overallDim?.top != null ? `/${overallDim.top}` : ''}`,
    ...(typeof r.decision === 'string' ? [r.decision] : []),
  ];
  const rest = dims.filter((d) => d !== overallDim).map((d) => `${d.name} ${d.value}${d.top !== null ? `/${d.top}` : ''}`);
  const ensemble = Array.isArray(r.ensemble_reviews) && r.ensemble_reviews.length > 1 ? ` (meta review of ${r.ensemble_reviews.length} reviews)` : '';
  return `review: ${parts.join(', ')}${ensemble}${rest.length ? `; ${rest.join(', ')}` : ''}`;
}

/** The final paper, or why there is none, from finalize_paper.json; null when finalization has not run. */
export function finalPaper(checkpointDir: string): { final: true; pdf: string } | { final: false; reason: string } | null {
  let r: Record<string, unknown> | null;
  try {
    r = readJsonObject(join(checkpointDir, FINALIZE_RECORD));
  } catch {
    return { final: false, reason: `${FINALIZE_RECORD} cannot be read` };
  }
  // a workflow whose finalize_paper stage is another tool (inject_code_availability) keeps another record there
  if (!r || typeof r.finalized !== 'boolean') return null;
  if (r.finalized === true && typeof r.pdf_path === 'string' && isFileAt(r.pdf_path)) return { final: true, pdf: r.pdf_path };
  return { final: false, reason: typeof r.reason === 'string' ? r.reason : 'the final paper is missing' };
}
