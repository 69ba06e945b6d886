import { DEMO_N } from './demo-program.ts';
import { allNumbers, lastNumber, type OpenAIChatRequest, textOf, textOfRoles } from './scripted-request.ts';

const LEGACY_AXES = ['measurement_validity', 'comparative_rigor', 'novelty', 'reproducibility', 'clarity_of_contribution'];
const MEASURED = ['comparisons', 'moves', 'passes', 'sorted'];

/**
 * The evaluator's judge: reads the node's comparisons (the last the request quotes: a calibration
 * block of earlier nodes comes first, the node's own output last) and scores it against
 * n·log2(n), the comparisons a good comparison sort needs. The same request gets the same verdict.
 */
export function judgeReply(body: OpenAIChatRequest): string {
  const text = textOfRoles(body, ['system', 'user']);
  const comparisons = lastNumber(text, 'comparisons');
  const axes = axesOf(body);
  if (comparisons === null || comparisons <= 0) {
    const reason = 'the node reports no comparison count, so it has no result to judge';
    return JSON.stringify({
      has_real_data: false,
      params: {},
      measurements: {},
      metrics: {},
      reason,
      axis_scores: Object.fromEntries(axes.map((a) => [a, 0.1])),
      axis_rationales: Object.fromEntries(axes.map((a) => [a, reason])),
      comparison_found: false,
    });
  }
  const measurements: Record<string, number> = {};
  for (const key of MEASURED) {
    const v = lastNumber(text, key);
    if (v !== null) measurements[key] = v;
  }
  const params: Record<string, unknown> = {};
  for (const key of ['gap_ratio', 'seed', 'n']) {
    const v = lastNumber(text, key);
    if (v !== null) params[key] = v;
  }
  const n = typeof params.n === 'number' && params.n > 1 ? params.n : DEMO_N;
  const sortedOk = measurements.sorted !== 0;
  const quality = round(clamp((1 - Math.log10(comparisons / (n * Math.log2(n))) / 2) * (sortedOk ? 1 : 0.2), 0.05, 0.95));
  const compared = allNumbers(text, 'comparisons').length > 1;
  const scores: Record<string, number> = {};
  const why: Record<string, string> = {};
  for (const axis of axes) {
    const [score, rationale] = axisScore(axis, quality, compared, sortedOk, comparisons, n);
    scores[axis] = score;
    why[axis] = rationale;
  }
  const ratio = round(comparisons / (n * Math.log2(n)));
  return JSON.stringify({
    has_real_data: true,
    params,
    measurements,
    metrics: measurements,
    reason: `${comparisons} comparisons for ${n} integers, ${ratio} times n·log2(n); ${sortedOk ? 'the output was sorted' : 'the output was NOT sorted'}`,
    axis_scores: scores,
    axis_rationales: why,
    comparison_found: compared,
  });
}

function axisScore(axis: string, quality: number, compared: boolean, sortedOk: boolean, comparisons: number, n: number): [number, string] {
  switch (axis) {
    case 'measurement_validity':
      return sortedOk ? [0.9, 'an exact count from a deterministic program whose output was checked sorted'] : [0.2, 'the program did not sort its array'];
    case 'comparative_rigor':
      return compared ? [round(Math.max(quality, 0.5)), 'compared with other variants on the same seeded array'] : [0.3, 'no other variant to compare with yet'];
    case 'novelty':
      return [round(0.3 + 0.4 * quality), 'gap-ratio tuning of Shell sort is known; the measured ratio is the contribution'];
    case 'reproducibility':
      return [0.95, 'seeded generator, integer counts: the same numbers on every machine'];
    case 'clarity_of_contribution':
      return [0.7, `${comparisons} comparisons for n=${n}, one number per variant`];
    default:
      return [quality, `follows the comparison count (${comparisons})`];
  }
}

/**
 * The axes the request asks to score: the legacy five, plus the snake_case names listed below the
 * first line of the system message that speaks of axes (dynamic and custom modes add their own).
 */
function axesOf(body: OpenAIChatRequest): string[] {
  const system = textOf((body.messages ?? []).find((m) => m.role === 'system')?.content);
  const lines = system.split('\n');
  const from = lines.findIndex((l) => /\baxes\b|\baxis\b/i.test(l));
  const listed = from < 0 ? [] : lines.slice(from).flatMap((l) => /^\s*[-*]\s*`?([a-z][a-z0-9]*(?:_[a-z0-9]+)+)`?/.exec(l)?.[1] ?? []);
  return [...new Set([...LEGACY_AXES, 'claim_implementation_alignment', ...listed])];
}

/** The metric spec: the experiment's `Primary metric:` word, lower is better for counts. */
export function metricSpecReply(body: OpenAIChatRequest): string {
  const text = textOfRoles(body, ['user']);
  const keyword = /primary metric\s*:\s*`?([A-Za-z_][\w]*)/i.exec(text)?.[1] ?? 'comparisons';
  return JSON.stringify({
    metric_keyword: keyword,
    min_expected_metric: 0,
    higher_is_better: false,
    scoring_guide: `Judge each node by ${keyword} (lower is better) as its results.json measurements report it; a node that did not measure ${keyword} has no result.`,
  });
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
