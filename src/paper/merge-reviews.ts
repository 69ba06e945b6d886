import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { writeJsonAtomic } from '../core/atomic.ts';
import { InvalidRecordError, NotFoundError, oneLine } from '../core/errors.ts';
import { isFileAt } from '../core/paths.ts';
import { isMapping } from '../core/values.ts';

export const REVIEW_MERGE_LOG = 'review_merge_log.json';
/** The reviewers' report as review_compiled_paper wrote it, kept beside the merged one. */
export const REVIEWER_ORIGINAL = 'review_report.reviewer.json';

/** One finding of the figure review, with the figure it is about (null: the figures as a whole). */
export type FigureFinding = { figure: string | null; text: string };

type VlmFindings = {
  reviewed: boolean;
  score: number | null;
  model: string | null;
  figures: string[];
  reason: string | null;
  issues: FigureFinding[];
  suggestions: FigureFinding[];
};

export type MergeResult = { report: Record<string, unknown>; log: Record<string, unknown> };

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string' && s.trim() !== '').map((s) => s.trim()) : []);
const scoreOf = (v: unknown): number | null => (typeof v === 'number' && v >= 0 && v <= 1 ? v : null);

/** A finding's figure: the label it starts with ("fig:x: ..."), else the first label it names; the text without a leading label. */
function tagged(text: string, labels: string[], given: string | null = null): FigureFinding {
  const byLength = [...labels].sort((a, b) => b.length - a.length);
  const lead = byLength.find((l) => text.startsWith(`${l}:`) || text.startsWith(`${l} `) || text.startsWith(`[${l}]`));
  const rest = lead ? text.slice(text.startsWith(`[${lead}]`) ? lead.length + 2 : lead.length + 1).trim() : text;
  const figure = given ?? lead ?? byLength.find((l) => text.includes(l)) ?? null;
  return { figure, text: rest || text };
}

/**
 * The findings of vlm_review.json: vlm_review_figures' review of the figures as a whole
 * ({reviewed, score, issues, suggestions, figures}) and, when it has them, the reviews of single
 * figures ({reviews: [{label, score, issues, suggestions}]}, as review_figures_all returns), which
 * then stand for the top-level lists (those repeat them with the label in front).
 */
export function vlmFindings(v: Record<string, unknown>): VlmFindings {
  const perFigure = Array.isArray(v.reviews) ? v.reviews.filter(isMapping) : [];
  const labels = [...new Set([...strings(v.figures), ...perFigure.map((r) => (typeof r.label === 'string' ? r.label : '')).filter(Boolean)])];
  // with single-figure reviews, the top-level lists are those reviews' findings again
  const issues = perFigure.length ? [] : strings(v.issues).map((t) => tagged(t, labels));
  const suggestions = perFigure.length ? [] : strings(v.suggestions).map((t) => tagged(t, labels));
  for (const r of perFigure) {
    const label = typeof r.label === 'string' && r.label.trim() ? r.label.trim() : null;
    issues.push(...strings(r.issues).map((t) => tagged(t, labels, label)));
    suggestions.push(...strings(r.suggestions).map((t) => tagged(t, labels, label)));
  }
  return {
    reviewed: v.reviewed !== false && (issues.length > 0 || suggestions.length > 0 || scoreOf(v.score) !== null),
    score: scoreOf(v.score),
    model: typeof v.model === 'string' ? v.model : null,
    figures: labels,
    reason: typeof v.reason === 'string' ? v.reason : null,
    issues,
    suggestions,
  };
}

/** The text as the report shows it: tagged with its figure. */
export const findingLine = (f: FigureFinding): string => `[${f.figure ?? 'figures'}] ${f.text}`;

/** Text compared for duplicates: without a figure tag, case and spacing. */
function key(text: string): string {
  return text
    .replace(/^\s*\[[^\]]*\]\s*/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
    .replace(/[.;]+$/, '');
}

function readReport(path: string): Record<string, unknown> {
  const fix = 'review the paper first (the review_paper stage, review_compiled_paper), which writes review_report.json';
  if (!isFileAt(path)) throw new NotFoundError(`no review report at ${path}`, fix);
  let v: unknown;
  try {
    v = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new InvalidRecordError(`the review report ${path} is not JSON: ${oneLine(err)}`, fix);
  }
  if (!isMapping(v) || !('scores' in v)) throw new InvalidRecordError(`the review report ${path} is not a review (no scores)`, fix);
  return v;
}

/** vlm_review.json, or why there is nothing in it to merge. */
function readVlm(path: string): Record<string, unknown> | { nothing: string } {
  if (!isFileAt(path)) return { nothing: `there is no figure review at ${path}` };
  const text = readFileSync(path, 'utf8');
  if (text.trim() === '') return { nothing: `the figure review ${path} is empty` };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    throw new InvalidRecordError(`the figure review ${path} is not JSON: ${oneLine(err)}`, 'review the figures again (vlm_review_figures), or delete it');
  }
  if (!isMapping(v)) throw new InvalidRecordError(`the figure review ${path} is not a JSON object`, 'review the figures again (vlm_review_figures), or delete it');
  if (Object.keys(v).length === 0) return { nothing: `the figure review ${path} is empty` };
  return v;
}

/**
 * Folds the figure review (vlm_review.json) into the reviewers' report (review_report.json): its
 * issues are added to the report's issues and weaknesses, its suggestions to its recommendations,
 * each tagged with its figure, those the report already has left out; the figure review itself is
 * kept under vlm_figure_review and what was merged under _review_composition. The scores and the
 * decision stay the reviewers'. The reviewers' report is kept beside it (review_report.reviewer.json)
 * and a later merge starts again from it, so merging twice adds nothing twice. Without a figure
 * review the report is left as it is. Writes the report (atomically) and review_merge_log.json.
 */
export function mergeReviews(reportPath: string, vlmPath: string, logDir: string = dirname(reportPath)): MergeResult {
  const current = readReport(reportPath);
  const originalPath = join(dirname(reportPath), REVIEWER_ORIGINAL);
  const logPath = join(logDir, REVIEW_MERGE_LOG);
  const base = { review_report: reportPath, vlm_review: vlmPath, scores_changed: false, merged_at: new Date().toISOString() };

  const vlm = readVlm(vlmPath);
  const findings = 'nothing' in vlm ? null : vlmFindings(vlm);
  const nothing = 'nothing' in vlm ? vlm.nothing : findings && !findings.reviewed ? `the figures were not reviewed${findings.reason ? ` (${findings.reason})` : ''}` : null;
  if (nothing || !findings) {
    const log = { merged: false, reason: `${nothing}: the review report is left as the reviewers wrote it`, ...base, added: { issues: [], recommendations: [] }, duplicates_dropped: [] };
    writeJsonAtomic(logPath, log);
    return { report: current, log };
  }

  // the reviewers' own report: this one unless an earlier merge made it, then the one kept beside it
  const merged = isMapping(current._review_composition);
  if (merged && !isFileAt(originalPath)) {
    throw new NotFoundError(`${reportPath} was merged before but the reviewers' report ${originalPath} is gone`, 'review the paper again (the review_paper stage), then merge');
  }
  const original = merged ? readReport(originalPath) : current;
  if (!merged) writeJsonAtomic(originalPath, original);

  const seen = new Set([...strings(original.issues), ...strings(original.recommendations), ...strings(original.figure_caption_issues)].map(key));
  for (const line of typeof original.weaknesses === 'string' ? original.weaknesses.split('\n') : []) if (key(line.replace(/^\s*[-*]\s*/, ''))) seen.add(key(line.replace(/^\s*[-*]\s*/, '')));
  const dropped: string[] = [];
  const fresh = (list: FigureFinding[]): string[] => {
    const out: string[] = [];
    for (const f of list) {
      const k = key(f.text);
      if (seen.has(k)) {
        dropped.push(findingLine(f));
        continue;
      }
      seen.add(k);
      out.push(findingLine(f));
    }
    return out;
  };
  const addedIssues = fresh(findings.issues);
  const addedRecommendations = fresh(findings.suggestions);

  const report: Record<string, unknown> = { ...original };
  if (addedIssues.length) {
    report.issues = [...strings(original.issues), ...addedIssues];
    if (typeof original.weaknesses === 'string') report.weaknesses = `${original.weaknesses.trimEnd()}\n\nFrom the figure review:\n${addedIssues.map((l) => `- ${l}`).join('\n')}`;
  }
  if (addedRecommendations.length) report.recommendations = [...strings(original.recommendations), ...addedRecommendations];
  report.vlm_figure_review = {
    source: vlmPath,
    score: findings.score,
    model: findings.model,
    figures: findings.figures,
    issues: findings.issues,
    suggestions: findings.suggestions,
  };
  report._review_composition = {
    reviewers_report: basename(originalPath),
    merged: ['vlm_figure_review'],
    added: { issues: addedIssues.length, recommendations: addedRecommendations.length },
    duplicates_dropped: dropped.length,
    merged_at: base.merged_at,
  };
  writeJsonAtomic(reportPath, report);
  const log = {
    merged: true,
    ...base,
    reviewers_report: originalPath,
    vlm_score: findings.score,
    figures: findings.figures,
    added: { issues: addedIssues, recommendations: addedRecommendations },
    duplicates_dropped: dropped,
  };
  writeJsonAtomic(logPath, log);
  return { report, log };
}
