import type { Config } from '../core/config/config.ts';
import type { Env } from '../core/config/env-vars.ts';
import type { ModelClient } from '../llm/client.ts';
import type { SkillPool } from '../mcp/pool.ts';
import type { IdeaFile } from '../schema/checkpoint.ts';
import type { Workflow } from '../schema/workflow.ts';
import type { NodeAllocations } from '../sandbox/allocations.ts';
import type { NodeExec } from '../sandbox/node-command.ts';

/**
 * The seams between the parts of a research run: the search schedules nodes, the agent runs one
 * node, the evaluator scores it. Each side builds against these types only.
 */

export const NODE_LABELS = ['draft', 'improve', 'debug', 'ablation', 'validation', 'other'] as const;
export type NodeLabel = (typeof NODE_LABELS)[number];

export type NodeState = 'pending' | 'running' | 'success' | 'failed' | 'abandoned';

/** A node of the search, written to tree.json with exactly these keys in this order. */
export type SearchNode = {
  id: string;
  parent_id: string | null;
  depth: number;
  status: NodeState;
  retry_count: number;
  children: string[];
  created_at: string;
  completed_at: string | null;
  artifacts: unknown[];
  /** extracted numbers plus the reserved keys _scientific_score, _axis_scores, _comparison_found, _params_dict, _measurements_dict, _sterile */
  metrics: Record<string, unknown>;
  has_real_data: boolean;
  eval_summary: string | null;
  label: NodeLabel;
  raw_label: string;
  name: string;
  error_log: string | null;
  /** root first, parent last */
  ancestor_ids: string[];
  trace_log: string[];
  original_direction: string | null;
  node_report_path: string | null;
};

/** Settings of one run, resolved once from flags, environment, profile and workflow. */
export type RunSettings = {
  maxNodes: number;
  maxDepth: number;
  parallel: number;
  maxReact: number;
  timeoutNodeS: number;
  maxExpansionsPerNode: number;
  /** false when the workflow's frontier_expand stage is disabled */
  expansionEnabled: boolean;
  frontierScore: 'scientific_plus_diversity' | 'scientific_only' | 'depth_penalized' | 'ucb_like';
  depthPenaltyLambda: number;
  ucbC: number;
  /** template text (already read: a missing template file fails before the run starts) */
  selectPrompt: string;
  expandSelectPrompt: string;
};

/** What every part of a run shares. */
export type RunContext = {
  cfg: Config;
  workflow: Workflow;
  settings: RunSettings;
  /** the environment skill processes and node commands get (SVC_CHECKPOINT_DIR and the like set) */
  env: Env;
  checkpointDir: string;
  runId: string;
  /** `<workspace>/experiments/<run_id>`: one work directory per node below it */
  experimentsDir: string;
  /** the checkpoint's experiment.md text */
  goal: string;
  model: ModelClient;
  pool: SkillPool;
  /** idea.json as it is now (null before ideas exist) */
  idea(): IdeaFile | null;
  /** one progress line for the terminal and the run log */
  log(msg: string): void;
  /** how the nodes' commands run (their container), as checked before the first node */
  exec?: NodeExec;
  /** the Slurm allocations of the nodes, when they run on the cluster */
  allocations?: NodeAllocations;
};

/** One node to run. The work directory exists; the parent's files are already inherited. */
export type NodeTask = {
  ctx: RunContext;
  node: SearchNode;
  parent: SearchNode | null;
  workDir: string;
  /** aborted at the per-node time limit or when the run stops: every process of the node must end */
  signal: AbortSignal;
  /** how this node's commands run, when it differs from the run's (its own allocation) */
  exec?: NodeExec;
};

/** What running a node decides; the search copies these fields onto the node. */
export type NodeOutcome = {
  status: 'success' | 'failed';
  artifacts: unknown[];
  metrics: Record<string, unknown>;
  has_real_data: boolean;
  eval_summary: string | null;
  error_log: string | null;
  trace_log: string[];
  node_report_path: string | null;
};

export type NodeRunner = (task: NodeTask) => Promise<NodeOutcome>;

/** The composite score of a node (metrics._scientific_score), 0 when it has none. */
export function scoreOf(node: Pick<SearchNode, 'metrics'>): number {
  const s = node.metrics._scientific_score;
  return typeof s === 'number' && Number.isFinite(s) ? s : 0;
}

/** What the evaluator is given about a finished node. */
export type EvaluationInput = {
  ctx: RunContext;
  node: SearchNode;
  workDir: string;
  artifacts: unknown[];
  /** the agent's own summary of what it did */
  summary: string;
  signal: AbortSignal;
};

/** The evaluator's verdict: metrics carry _scientific_score, _axis_scores and the other reserved keys. */
export type Evaluation = {
  metrics: Record<string, unknown>;
  has_real_data: boolean;
  reason: string;
  axis_rationales: Record<string, string>;
};

export type Evaluate = (input: EvaluationInput) => Promise<Evaluation>;

/**
 * The best node of a search: the highest-scoring successful node, among those with real data when
 * any have it; ties go to the earlier. Null when none succeeded.
 */
export function bestNode(nodes: readonly SearchNode[]): SearchNode | null {
  const ok = nodes.filter((n) => n.status === 'success');
  const real = ok.filter((n) => n.has_real_data);
  let best: SearchNode | null = null;
  for (const n of real.length ? real : ok) if (!best || scoreOf(n) > scoreOf(best)) best = n;
  return best;
}
