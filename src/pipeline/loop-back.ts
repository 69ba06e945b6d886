import { isMapping } from '../core/values.ts';
import type { Stage } from '../schema/workflow.ts';

export const DEFAULT_LOOP_MAX_ITERATIONS = 2;

/** Where a stage that just succeeded sends the pipeline, and with what feedback; `exhausted` when it has no loop-back left. */
export type LoopBack = { target: string; why: string; feedback: string; max: number; exhausted: boolean };

/**
 * Whether a stage's result sends the pipeline back to its loop_back_to stage: its `score` is below
 * loop_threshold, or its loop_when_result_key is truthy. Null when neither holds (or the stage has
 * no loop). `done`: the loop-backs this stage has made so far.
 */
export function loopBack(stage: Stage, result: unknown, done: number): LoopBack | null {
  if (!stage.loop_back_to) return null;
  const r = asObject(result);
  const score = typeof r.score === 'number' ? r.score : null;
  const threshold = stage.loop_threshold;
  const low = threshold !== undefined && score !== null && score < threshold;
  const key = stage.loop_when_result_key;
  const flagged = key !== undefined && Boolean(r[key]);
  if (!low && !flagged) return null;
  const max = stage.loop_max_iterations ?? DEFAULT_LOOP_MAX_ITERATIONS;
  const why = low ? `score ${score} is below loop_threshold ${threshold}` : `${key} is set in its result`;
  return { target: stage.loop_back_to, why, feedback: feedbackText(r), max, exhausted: done >= max };
}

/**
 * `{{vlm_feedback}}`: a review's score, issues, suggestions and text flattened to lines, for the
 * stage run again to act on.
 */
export function feedbackText(r: Record<string, unknown>): string {
  const lines: string[] = [];
  if (r.score !== undefined) lines.push(`score: ${String(r.score)}`);
  for (const key of ['issues', 'suggestions']) {
    const v = r[key];
    const items = Array.isArray(v) ? v : v === undefined || v === null || v === '' ? [] : [v];
    if (items.length > 0) lines.push(`${key}:`, ...items.map((x) => `- ${typeof x === 'string' ? x : JSON.stringify(x)}`));
  }
  if (typeof r.review_text === 'string' && r.review_text.trim()) lines.push(r.review_text.trim());
  return lines.join('\n');
}

function asObject(v: unknown): Record<string, unknown> {
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return {};
    }
  }
  return isMapping(v) ? v : {};
}
