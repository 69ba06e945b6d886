import metricSpecTemplate from '../../prompts/evaluator/metric_spec.md' with { type: 'text' };
import { loadConfig } from '../../core/config/config.ts';
import { envValue } from '../../core/config/env-vars.ts';
import { oneLine, SvcError } from '../../core/errors.ts';
import { fillOwnPrompt } from '../../prompts/templates.ts';
import { createModelClient } from '../../llm/client.ts';
import type { ToolContext } from '../../mcp/tool.ts';
import type { MetricSpec } from '../../evaluate/metric-contract.ts';
import { toKeyword } from '../../evaluate/metric-keyword.ts';

/** How much of the experiment text the model reads: the metric is named near the top when at all. */
const MAX_EXPERIMENT_CHARS = 6000;

type Answer = { metric_keyword: string; higher_is_better?: boolean; min_expected_metric: number; scoring_guide: string };

/**
 * The metric spec the eval model chooses for a text that names none. The skill process builds its
 * client from its own environment (the run's, with SVC_CHECKPOINT_DIR, so the call is in the run's
 * cost ledger). A model that fails or gives no usable answer after one corrective retry is an
 * error saying how to name the metric instead.
 */
export async function modelMetricSpec(text: string, checkpoint: string | null, ctx: ToolContext): Promise<MetricSpec> {
  const cfg = loadConfig({ env: ctx.env, ...(checkpoint ? { checkpointDir: checkpoint } : {}) });
  const model = createModelClient({ cfg, checkpointDir: checkpoint });
  const node = envValue(ctx.env, 'SVC_CURRENT_NODE_ID');
  let answer: Answer;
  try {
    answer = await model.completeJson<Answer>(
      {
        role: 'eval',
        messages: [
          { role: 'system', content: fillOwnPrompt(metricSpecTemplate, { experiment: text.slice(0, MAX_EXPERIMENT_CHARS) }) },
          { role: 'user', content: 'Choose the metric. Answer with the JSON object only.' },
        ],
        meta: { phase: 'bfts', skill: 'evaluator-skill', component: 'evaluator', op: 'metric_spec', ...(node ? { node_id: node } : {}) },
        signal: ctx.signal,
      },
      checkAnswer,
      { retries: 1 },
    );
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    throw new SvcError(`no metric keyword found in experiment_text and the eval model chose none: ${oneLine(err)}`, 'name it in the text: <!-- metric: name --> or a line "Primary metric: name"');
  }
  return {
    metric_keyword: toKeyword(answer.metric_keyword),
    min_expected_metric: answer.min_expected_metric,
    scoring_guide: answer.scoring_guide.trim(),
    higher_is_better: answer.higher_is_better ?? true,
    source: 'model',
    keyword_found_in: 'model',
  };
}

function checkAnswer(v: unknown): string | null {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return 'the answer must be a JSON object';
  const a = v as Record<string, unknown>;
  if (typeof a.metric_keyword !== 'string' || toKeyword(a.metric_keyword) === '') return 'metric_keyword must be a non-empty name';
  if (typeof a.min_expected_metric !== 'number' || !Number.isFinite(a.min_expected_metric)) return 'min_expected_metric must be a number';
  if (typeof a.scoring_guide !== 'string' || a.scoring_guide.trim() === '') return 'scoring_guide must be a non-empty string';
  if (a.higher_is_better !== undefined && typeof a.higher_is_better !== 'boolean') return 'higher_is_better must be true or false';
  return null;
}
