import type { Axis } from './axes.ts';
import { compositeScore } from './composite.ts';
import type { JudgeAnswer } from './judge.ts';
import type { NodeResults } from './node-results.ts';
import type { Composite } from './settings.ts';

export type MetricSources = {
  /** null when the judge failed */
  judge: JudgeAnswer | null;
  /** the primary metric and the last value the artifacts print for it, when they print one */
  extracted: { key: string; value: number } | null;
  results: NodeResults | null;
  axes: Axis[];
  composite: Composite;
};

/**
 * A node's metrics: the judge's flat numbers, then the primary metric found in the artifacts, then
 * the node's own results.json measurements — each later source wins a key, the node's own
 * measurement most of all. The reserved keys carry the composite score, the axis scores (clamped
 * to [0, 1]), whether a comparison was found, and the params and measurements dictionaries.
 */
export function assembleMetrics(s: MetricSources): { metrics: Record<string, unknown>; hasRealData: boolean } {
  const metrics: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s.judge?.metrics ?? {})) {
    if (!k.startsWith('_') && typeof v === 'number' && Number.isFinite(v)) metrics[k] = v;
  }
  if (s.extracted) metrics[s.extracted.key] = s.extracted.value;
  const measured = s.results ? Object.entries(s.results.values) : [];
  for (const [k, v] of measured) if (!k.startsWith('_')) metrics[k] = v;

  const axisScores: Record<string, number> = {};
  for (const a of s.axes) {
    const x = s.judge?.axis_scores[a.name];
    if (x !== undefined) axisScores[a.name] = Math.max(0, Math.min(1, x));
  }
  const score = s.judge ? compositeScore(s.composite, s.axes.map((a) => ({ weight: a.weight, score: axisScores[a.name] ?? Number.NaN }))) : 0;
  metrics._scientific_score = score;
  metrics._axis_scores = axisScores;
  metrics._comparison_found = s.judge?.comparison_found ?? false;
  metrics._params_dict = { ...(s.judge?.params ?? {}), ...(s.results?.params ?? {}) };
  metrics._measurements_dict = { ...(s.judge?.measurements ?? {}), ...(s.results?.measurements ?? {}) };
  return { metrics, hasRealData: measured.length > 0 || s.judge?.has_real_data === true };
}
