import { isMapping } from '../core/values.ts';
import judgeTemplate from '../prompts/evaluator/judge.md' with { type: 'text' };
import type { ModelClient } from '../llm/client.ts';
import type { Axis } from './axes.ts';
import { fillOwnPrompt } from '../prompts/templates.ts';

/** How much of each input the judge sees: enough to judge, bounded so one node cannot flood the prompt. */
export const JUDGE_LIMITS = { goal: 500, artifacts: 2000, summary: 500, contract: 1500 } as const;

export type JudgeAnswer = {
  has_real_data: boolean;
  params: Record<string, unknown>;
  measurements: Record<string, unknown>;
  metrics: Record<string, unknown>;
  reason: string;
  axis_scores: Record<string, number>;
  axis_rationales: Record<string, string>;
  comparison_found: boolean;
};

export type JudgeInput = {
  goal: string;
  artifactsText: string;
  summary: string;
  /** the checkpoint's metric_contract.json, null when it has none */
  contract: Record<string, unknown> | null;
  axes: Axis[];
  nodeId: string;
  signal: AbortSignal;
};

/** The judge's request: a pure function of the node's content, so a replayed run asks the same. */
export function judgePrompt(input: Omit<JudgeInput, 'signal' | 'nodeId'>): string {
  return fillOwnPrompt(judgeTemplate, {
    goal: input.goal.slice(0, JUDGE_LIMITS.goal),
    contract: input.contract ? JSON.stringify(contractView(input.contract)).slice(0, JUDGE_LIMITS.contract) : '(none)',
    axes: input.axes.map((a) => `- ${a.name}: ${a.description}`).join('\n'),
    artifacts: input.artifactsText.slice(0, JUDGE_LIMITS.artifacts) || '(none)',
    summary: input.summary.slice(0, JUDGE_LIMITS.summary) || '(none)',
  });
}

/** The contract fields that tell the judge what counts: the rest (timestamps, provenance) does not. */
function contractView(c: Record<string, unknown>): Record<string, unknown> {
  const keys = ['key', 'metric_keyword', 'higher_is_better', 'min_expected_metric', 'formula', 'required_measured', 'claims', 'scoring_guide'];
  return Object.fromEntries(keys.filter((k) => Object.hasOwn(c, k)).map((k) => [k, c[k]]));
}

/** Asks the eval model; throws when it fails or gives no usable answer after one corrective retry. */
export async function askJudge(model: ModelClient, input: JudgeInput): Promise<JudgeAnswer> {
  const raw = await model.completeJson<Record<string, unknown>>(
    {
      role: 'eval',
      messages: [
        { role: 'system', content: judgePrompt(input) },
        { role: 'user', content: 'Evaluate this node. Answer with the JSON object only.' },
      ],
      meta: { phase: 'bfts', node_id: input.nodeId, component: 'evaluator', op: 'judge' },
      signal: input.signal,
    },
    (value) => checkJudgeAnswer(value, input.axes),
    { retries: 1 },
  );
  return normalize(raw);
}

/** What is wrong with a judge's answer, null when it can be used. */
export function checkJudgeAnswer(value: unknown, axes: Axis[]): string | null {
  if (!isMapping(value)) return 'the answer must be a JSON object';
  if (typeof value.has_real_data !== 'boolean') return 'has_real_data must be true or false';
  if (typeof value.reason !== 'string') return 'reason must be a string';
  if (!isMapping(value.axis_scores)) return 'axis_scores must be an object of numbers';
  const scores = value.axis_scores;
  const missing = axes.filter((a) => typeof scores[a.name] !== 'number' || !Number.isFinite(scores[a.name])).map((a) => a.name);
  if (missing.length > 0) return `axis_scores lacks a number for ${missing.join(', ')}`;
  for (const key of ['params', 'measurements', 'metrics', 'axis_rationales'] as const) {
    if (value[key] !== undefined && !isMapping(value[key])) return `${key} must be an object`;
  }
  if (value.comparison_found !== undefined && typeof value.comparison_found !== 'boolean') return 'comparison_found must be true or false';
  return null;
}

function normalize(v: Record<string, unknown>): JudgeAnswer {
  const obj = (x: unknown) => (isMapping(x) ? x : {});
  const rationales = Object.fromEntries(Object.entries(obj(v.axis_rationales)).filter((e): e is [string, string] => typeof e[1] === 'string'));
  const scores = Object.fromEntries(Object.entries(obj(v.axis_scores)).filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1])));
  return {
    has_real_data: v.has_real_data === true,
    params: obj(v.params),
    measurements: obj(v.measurements),
    metrics: obj(v.metrics),
    reason: String(v.reason).replace(/\s+/g, ' ').trim(),
    axis_scores: scores,
    axis_rationales: rationales,
    comparison_found: v.comparison_found === true,
  };
}
