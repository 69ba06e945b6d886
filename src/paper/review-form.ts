import { isMapping } from '../core/values.ts';
import type { JsonCheck } from '../llm/client.ts';
import type { UserRubric } from '../schema/rubric.ts';

/** Lists a review may carry besides the rubric's text sections. */
export const EXTRA_LISTS = ['issues', 'recommendations', 'figure_caption_issues'] as const;

/** One review as kept in the report: scores clamped to their scales, text sections as text. */
export type NormalizedReview = {
  scores: Record<string, number | null>;
  text: Record<string, string>;
  lists: Partial<Record<(typeof EXTRA_LISTS)[number], string[]>>;
  /** the decision the reviewer gave, when it is one of the rubric's options */
  reviewer_decision: string | null;
  /** scores the reviewer gave outside their scale, and what was kept */
  clamped: { dimension: string; given: number; kept: number }[];
};

/** The text of a section the model gave as text or as a list of points. */
function sectionText(v: unknown): string | null {
  if (typeof v === 'string') return v.trim();
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.map((x) => `- ${x.trim()}`).join('\n');
  return null;
}

/**
 * What a reviewer's answer must be: an object with a finite number for every score dimension and
 * text (or a list of text) for every required text section. Out-of-scale numbers pass: they are clamped.
 */
export function reviewCheck(rubric: UserRubric): JsonCheck {
  return (v) => {
    if (!isMapping(v)) return 'the answer must be one JSON object of scores and text sections';
    const missing = rubric.score_dimensions.filter((d) => typeof v[d.name] !== 'number' || !Number.isFinite(v[d.name]));
    if (missing.length) return `every score dimension needs a number: ${missing.map((d) => `"${d.name}" (${d.scale[0]} to ${d.scale[1]})`).join(', ')}`;
    const required = (rubric.text_sections ?? []).filter((s) => s.required && !sectionText(v[s.name]));
    if (required.length) return `these text sections need text: ${required.map((s) => `"${s.name}"`).join(', ')}`;
    return null;
  };
}

/** A checked answer as kept: every score clamped to its dimension's scale (a missing one null). */
export function normalizeReview(rubric: UserRubric, v: Record<string, unknown>): NormalizedReview {
  const scores: Record<string, number | null> = {};
  const clamped: NormalizedReview['clamped'] = [];
  for (const d of rubric.score_dimensions) {
    const given = v[d.name];
    if (typeof given !== 'number' || !Number.isFinite(given)) {
      scores[d.name] = null;
      continue;
    }
    const kept = Math.min(d.scale[1], Math.max(d.scale[0], given));
    if (kept !== given) clamped.push({ dimension: d.name, given, kept });
    scores[d.name] = kept;
  }
  const text: Record<string, string> = {};
  for (const s of rubric.text_sections ?? []) {
    const t = sectionText(v[s.name]);
    if (t) text[s.name] = t;
  }
  const lists: NormalizedReview['lists'] = {};
  for (const key of EXTRA_LISTS) {
    const l = v[key];
    if (Array.isArray(l)) lists[key] = l.filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim());
  }
  const options = rubric.decision?.options;
  const d = typeof v.decision === 'string' ? v.decision.trim() : null;
  return { scores, text, lists, reviewer_decision: d && (!options || options.includes(d)) ? d : null, clamped };
}

/**
 * The rubric's decision rule on the threshold dimension's score: at or above the threshold the
 * first (most favourable) option; below it, the other options share the rest of the scale in
 * equal bands, the lowest band the last option. Null without a score or a decision rule.
 */
export function decide(rubric: UserRubric, scores: Record<string, number | null>): string | null {
  const rule = rubric.decision;
  if (!rule) return null;
  const value = scores[rule.threshold_dimension];
  if (value === null || value === undefined) return null;
  if (value >= rule.threshold_value) return rule.options[0] ?? null;
  const below = rule.options.slice(1);
  const lo = rubric.score_dimensions.find((d) => d.name === rule.threshold_dimension)?.scale[0] ?? value;
  const width = (rule.threshold_value - lo) / below.length;
  if (width <= 0) return below.at(-1) ?? null;
  // bands from the threshold down: [t - w, t) is the second option, and so on
  const band = Math.min(below.length - 1, Math.floor((rule.threshold_value - value) / width - 1e-9));
  return below[Math.max(0, band)] ?? null;
}

/** The rubric's overall dimension: the one its decision rule reads, else one named overall. */
export function overallDimension(rubric: UserRubric): string | null {
  return rubric.decision?.threshold_dimension ?? rubric.score_dimensions.find((d) => d.name === 'overall')?.name ?? null;
}

/** The mean of the reviews' scores on each dimension, to two decimals; null where none scored it. */
export function meanScores(rubric: UserRubric, reviews: NormalizedReview[]): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const d of rubric.score_dimensions) {
    const values = reviews.map((r) => r.scores[d.name]).filter((x): x is number => typeof x === 'number');
    out[d.name] = values.length ? Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 100) / 100 : null;
  }
  return out;
}

/** The prompt's lines describing the form: dimensions, text sections, options, and an answer of that form. */
export function formBlocks(rubric: UserRubric, extra: Record<string, unknown> = {}): { dimensions: string; sections: string; options: string; answer_format: string } {
  const dimensions = rubric.score_dimensions.map((d) => `- ${d.name} [${d.scale[0]}, ${d.scale[1]}]${d.description ? `: ${d.description.trim()}` : ''}`).join('\n');
  const sectionList = rubric.text_sections ?? [];
  const sections = sectionList.length ? sectionList.map((s) => `- ${s.name} (${s.required ? 'required' : 'optional'})`).join('\n') : '(none)';
  const options = rubric.decision?.options.join(', ') ?? 'accept, reject';
  const example: Record<string, unknown> = {};
  for (const d of rubric.score_dimensions) example[d.name] = `<number from ${d.scale[0]} to ${d.scale[1]}>`;
  for (const s of sectionList) example[s.name] = '<text>';
  example.decision = `<${rubric.decision?.options.join(' | ') ?? 'accept | reject'}>`;
  return { dimensions, sections, options, answer_format: JSON.stringify({ ...example, ...extra }, null, 1) };
}
