import { type Env, envOnOff } from '../core/config/env-vars.ts';
import type { ModelClient } from '../llm/client.ts';
import type { Workflow } from '../schema/workflow.ts';
import { chosenIdea, experimentGoal } from '../science/experiment.ts';
import { primaryMetric } from '../science/primary-metric.ts';
import { loadTree } from '../search/tree-store.ts';
import { extractKeywords } from './keywords.ts';
import { NO_REAL_DATA_FILE, realDataGate, recordGate, writeNodesTree } from './nodes-tree.ts';
import { paperContext } from './paper-context.ts';
import type { PlannedStage } from './stages.ts';
import { VERIFIED_CONTEXT_FILE, writeVerifiedContext } from './verified-context.ts';

export type PreflightOptions = {
  checkpointDir: string;
  workflow: Workflow;
  env: Env;
  /** the paper model, or why there is none */
  model: ModelClient | string;
  /** the stages about to run: keywords are asked for only when one of them uses {{keywords}} */
  stages: readonly PlannedStage[];
  signal?: AbortSignal;
};

export type Preflight = {
  /** the template variables the pre-flight settles (vlm_feedback starts empty) */
  vars: Record<string, unknown>;
  /** {{paper_context}} as it is now: science_data.json joins it once transform_data has run */
  paperContext(): string;
  /** what the pre-flight found, for the log */
  lines: string[];
  /** set when the sanity gate stops the pipeline: the one line saying why */
  stop: string | null;
};

/**
 * What the post-search pipeline settles before its first stage: nodes_tree.json with what the
 * paper stages need of each node, the no-real-data sanity gate (SVC_FORCE_PAPER=1 passes it),
 * verified_context.json from memory, the primary metric, the search keywords and the paper context.
 */
export async function preflight(opts: PreflightOptions): Promise<Preflight> {
  const dir = opts.checkpointDir;
  const tree = loadTree(dir);
  const goal = experimentGoal(dir);
  const nodes = writeNodesTree(dir, goal, tree?.nodes ?? []);
  const lines: string[] = [];
  const gate = realDataGate(nodes);
  recordGate(dir, gate);
  if (!gate.passed) {
    if (!envOnOff(opts.env, 'SVC_FORCE_PAPER')) {
      return { vars: {}, paperContext: () => '', lines, stop: `${gate.line}; see ${NO_REAL_DATA_FILE} (SVC_FORCE_PAPER=1 runs the pipeline anyway)` };
    }
    lines.push(`pre-flight: ${gate.line}; SVC_FORCE_PAPER=1: the pipeline runs anyway`);
  }
  const real = nodes.filter((n) => n.has_real_data).length;
  const verified = await writeVerifiedContext(dir, nodes.map((n) => n.id), opts.env);
  const idea = chosenIdea(dir);
  let metric: { primary_metric: string; higher_is_better: boolean } | Record<string, never> = {};
  try {
    const m = primaryMetric(dir, { higher_is_better: true });
    metric = { primary_metric: m.name, higher_is_better: m.higher_is_better };
  } catch {
    // a run that names no metric leaves {{primary_metric}} unset: a stage using it says so
  }
  const vars: Record<string, unknown> = { vlm_feedback: '', idea_context: idea ?? '', ...metric };
  if (opts.stages.some((s) => /\{\{\s*keywords\s*\}\}/.test(JSON.stringify(s.inputs ?? {})))) {
    const k = await extractKeywords(opts.model, goal, idea, opts.signal);
    vars.keywords = k.keywords.join(', ');
    lines.push(`pre-flight: keywords ${k.keywords.join(', ') || '(none)'}${k.note ? ` (deterministic: ${k.note})` : ''}`);
  } else vars.keywords = '';
  lines.unshift(
    `pre-flight: ${nodes.length} nodes, ${real} with real data; ${VERIFIED_CONTEXT_FILE}: ${verified.verified.length} verified result${verified.verified.length === 1 ? '' : 's'}${verified.note ? ` (${verified.note})` : ''}`,
  );
  const workflowContext = opts.workflow.paper_context ?? null;
  return { vars, paperContext: () => paperContext(dir, { workflowContext, goal, idea, nodes }), lines, stop: null };
}
