import { oneLine } from '../core/errors.ts';
import type { Evaluate, EvaluationInput } from '../search/contract.ts';
import { readMetricContract } from './metric-contract.ts';
import { toKeyword } from './metric-keyword.ts';
import { axesFor } from './axes.ts';
import { artifactsText, extractMetric } from './extract.ts';
import { askJudge, type JudgeAnswer } from './judge.ts';
import { assembleMetrics } from './metrics.ts';
import { readNodeResults } from './node-results.ts';
import { evaluatorSettings } from './settings.ts';

/**
 * Scores a finished node: the eval model judges it on the axes of the run's axis mode, the
 * composite of the axis scores is its _scientific_score, and its metrics come from the judge, the
 * artifacts and its own results.json (which wins). A judge that fails leaves the node with score 0
 * and its measured numbers, and the reason says so; only a stopped node (aborted signal) throws.
 * Bad evaluator settings (SVC_COMPOSITE, SVC_AXIS_MODE, custom mode without axes) throw InputError.
 */
export const evaluateNode: Evaluate = async (input) => {
  const { ctx, node } = input;
  const settings = evaluatorSettings(ctx.workflow, ctx.env);
  const idea = ctx.idea();
  const axes = axesFor(settings, idea);
  const notes: string[] = [];
  const contract = contractOf(input, notes);
  const text = artifactsText(input.artifacts);
  const read = readNodeResults(input.workDir);
  if (read.problem) notes.push(read.problem);

  const primary = primaryKey(contract, idea?.primary_metric);
  const found = primary ? extractMetric(text, primary) : null;
  let judge: JudgeAnswer | null = null;
  let failure: string | null = null;
  try {
    judge = await askJudge(ctx.model, { goal: ctx.goal, artifactsText: text, summary: input.summary, contract, axes, nodeId: node.id, signal: input.signal });
  } catch (err) {
    if (input.signal.aborted) throw err;
    failure = oneLine(err).replace(/\s+/g, ' ');
    ctx.log(`${node.id}: the judge failed, score 0 (${failure})`);
  }
  for (const note of notes) ctx.log(`${node.id}: ${note}`);

  const { metrics, hasRealData } = assembleMetrics({
    judge,
    extracted: primary && found !== null ? { key: primary, value: found } : null,
    results: read.results,
    axes,
    composite: settings.composite,
  });
  const reason = [judge ? judge.reason : `the judge failed: ${failure}`, ...notes].filter(Boolean).join('; ');
  const names = new Set(axes.map((a) => a.name));
  const rationales = Object.fromEntries(Object.entries(judge?.axis_rationales ?? {}).filter(([k]) => names.has(k)));
  return { metrics, has_real_data: hasRealData, reason, axis_rationales: rationales };
};

/** The checkpoint's metric contract; a damaged one is noted and judged without. */
function contractOf(input: EvaluationInput, notes: string[]): Record<string, unknown> | null {
  try {
    return readMetricContract(input.ctx.checkpointDir);
  } catch (err) {
    notes.push(`metric contract not used: ${oneLine(err)}`);
    return null;
  }
}

/** The metric the artifacts are searched for: the contract's, else the idea's primary metric. */
function primaryKey(contract: Record<string, unknown> | null, ideaMetric: string | undefined): string | null {
  const named = [contract?.metric_keyword, contract?.key, ideaMetric].find((x): x is string => typeof x === 'string' && x.trim() !== '');
  return named ? toKeyword(named) || null : null;
}
