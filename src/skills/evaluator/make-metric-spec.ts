import { join, resolve } from 'node:path';
import { Type as T } from '@sinclair/typebox';
import { envValue } from '../../core/config/env-vars.ts';
import { InputError, NotFoundError } from '../../core/errors.ts';
import { statOrNull } from '../../core/paths.ts';
import { defineTool, toolParams, type ToolContext } from '../../mcp/tool.ts';
import { CONTRACT_FILE, contractFor, type MetricSpec, mintContract, readMetricContract } from '../../evaluate/metric-contract.ts';
import { findMetric, findMinExpectedMetric, type MetricChoice } from '../../evaluate/metric-keyword.ts';
import { modelMetricSpec } from './metric-spec-model.ts';

export const makeMetricSpec = defineTool({
  name: 'make_metric_spec',
  description: `Decide the metric the experiment is judged by: the metric keyword (the measurement key to report with emit_results), whether higher is better, min_expected_metric (from <!-- min_expected_metric: x -->, else 0) and a scoring guide. The keyword comes from a <!-- metric: name --> comment, a "Primary metric:" or "Metric:" line, a "maximize/minimize <metric>" phrase, or the well-known metric word the text mentions most; when the text names none, the eval model chooses (source: model). The first call of a run writes ${CONTRACT_FILE} to SVC_CHECKPOINT_DIR; later calls return that contract unchanged with contract_frozen: true.`,
  params: toolParams({ experiment_text: T.String({ description: 'the experiment description (the Markdown of experiment.md)' }) }),
  async run(args, ctx) {
    if (args.experiment_text.trim() === '') throw new InputError('experiment_text is empty', 'give the experiment description');
    const checkpoint = checkpointDir(ctx.env);
    const frozen = checkpoint ? readMetricContract(checkpoint) : null;
    if (checkpoint && frozen) return { ...frozen, contract_path: join(checkpoint, CONTRACT_FILE), contract_frozen: true };
    const spec = metricSpec(args.experiment_text) ?? (await modelMetricSpec(args.experiment_text, checkpoint, ctx));
    if (!checkpoint) return { ...spec, contract_path: null, contract_frozen: false, note: `SVC_CHECKPOINT_DIR is not set: no ${CONTRACT_FILE} was written` };
    const minted = mintContract(checkpoint, contractFor(spec));
    return { ...minted.contract, contract_path: minted.path, contract_frozen: minted.frozen };
  },
});

/** The metric spec the experiment text gives, without a model; null when the text names no metric. */
export function metricSpec(text: string): MetricSpec | null {
  const choice = findMetric(text);
  if (!choice) return null;
  const min = findMinExpectedMetric(text);
  return {
    metric_keyword: choice.keyword,
    min_expected_metric: min,
    scoring_guide: scoringGuide(choice, min),
    higher_is_better: choice.higherIsBetter,
    source: 'deterministic',
    keyword_found_in: choice.found,
  };
}

function scoringGuide(choice: MetricChoice, min: number): string {
  const k = choice.keyword;
  const better = choice.higherIsBetter ? 'higher' : 'lower';
  const guide = `Judge each node by ${k} (${better} is better), the value a node reports under "${k}" in the measurements of its results.json. A node that did not measure ${k} has no result to compare.`;
  if (min === 0) return guide;
  return `${guide} A node whose ${k} is ${choice.higherIsBetter ? 'below' : 'above'} ${min} falls short of the expected minimum.`;
}

/** The run's checkpoint directory, null when the skill runs outside a run. */
function checkpointDir(env: ToolContext['env']): string | null {
  const raw = envValue(env, 'SVC_CHECKPOINT_DIR');
  if (raw === null) return null;
  const dir = resolve(raw);
  if (!statOrNull(dir)?.isDirectory()) throw new NotFoundError(`SVC_CHECKPOINT_DIR ${dir} is not a directory`, 'start the run again, or unset it to get the spec alone');
  return dir;
}
