import { join, relative } from 'node:path';
import { hashFileSync } from '../core/file-hash.ts';
import { readJsonObject } from '../core/json-object.ts';
import { isFileAt } from '../core/paths.ts';
import { isMapping } from '../core/values.ts';
import { FINAL_GATE_REPORT, FINALIZE_RECORD, gateDecision } from './finalize.ts';

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
  if (r.finalized !== true) return { final: false, reason: typeof r.reason === 'string' ? r.reason : 'finalize_paper did not make it final' };
  if (typeof r.pdf_path !== 'string' || !isFileAt(r.pdf_path)) return { final: false, reason: 'the final paper is missing; run the finalize_paper stage again' };
  // the paper final when it was made may be so no longer: its source edited, or the final gate run again since
  const source = typeof r.source_tex === 'string' ? r.source_tex : '';
  const sha = isFileAt(source) ? hashFileSync(source).sha256 : null;
  if (sha === null || sha !== r.source_sha256) return { final: false, reason: 'the paper changed after it was made final; run the claim_evidence_hard_gate_final and finalize_paper stages again' };
  const report = isMapping(r.gate) && typeof r.gate.report === 'string' ? r.gate.report : join(checkpointDir, FINAL_GATE_REPORT);
  const { blocked } = gateDecision(report, relative(checkpointDir, report), sha);
  return blocked === null ? { final: true, pdf: r.pdf_path } : { final: false, reason: blocked };
}
