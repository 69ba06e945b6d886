import { type Static, Type as T } from '@sinclair/typebox';

export const NodeLabel = T.Union(['draft', 'improve', 'debug', 'ablation', 'validation', 'other'].map((l) => T.Literal(l)));

/**
 * A node record as stored in tree.json (key order as written). Only `id` is required when reading:
 * checkpoints from older tools carry fewer fields.
 */
export const NodeRecord = T.Object(
  {
    id: T.String({ minLength: 1 }),
    parent_id: T.Optional(T.Union([T.String(), T.Null()])),
    depth: T.Optional(T.Integer({ minimum: 0 })),
    status: T.Optional(T.String()),
    retry_count: T.Optional(T.Integer()),
    children: T.Optional(T.Array(T.String())),
    created_at: T.Optional(T.Union([T.String(), T.Null()])),
    completed_at: T.Optional(T.Union([T.String(), T.Null()])),
    artifacts: T.Optional(T.Array(T.Unknown())),
    metrics: T.Optional(T.Record(T.String(), T.Unknown())),
    has_real_data: T.Optional(T.Boolean()),
    eval_summary: T.Optional(T.Union([T.String(), T.Null()])),
    label: T.Optional(T.String()),
    raw_label: T.Optional(T.String()),
    name: T.Optional(T.String()),
    error_log: T.Optional(T.Union([T.String(), T.Null()])),
    ancestor_ids: T.Optional(T.Array(T.String())),
    trace_log: T.Optional(T.Array(T.String())),
    original_direction: T.Optional(T.Union([T.String(), T.Null()])),
    node_report_path: T.Optional(T.Union([T.String(), T.Null()])),
  },
  { additionalProperties: true },
);
export type NodeRecord = Static<typeof NodeRecord>;

/** Run-level outcome svc records in tree.json when a run ends other than by finishing. */
export const RunOutcome = T.Union([T.Literal('failed'), T.Literal('stopped')]);

export const TreeFile = T.Object(
  {
    run_id: T.Optional(T.String()),
    experiment_file: T.Optional(T.String()),
    experiment_file_sha256: T.Optional(T.String()),
    experiment_file_len: T.Optional(T.Integer()),
    created_at: T.Optional(T.String()),
    experiment_goal: T.Optional(T.String()),
    status: T.Optional(RunOutcome),
    nodes: T.Array(NodeRecord),
  },
  { additionalProperties: true },
);
export type TreeFile = Static<typeof TreeFile>;

export const CostSummary = T.Object(
  {
    total_cost_usd: T.Number(),
    total_tokens: T.Integer(),
    call_count: T.Integer(),
    by_phase: T.Optional(T.Record(T.String(), T.Object({ cost_usd: T.Number(), tokens: T.Integer() }))),
    by_model: T.Optional(T.Record(T.String(), T.Object({ cost_usd: T.Number(), tokens: T.Integer() }))),
  },
  { additionalProperties: true },
);
export type CostSummary = Static<typeof CostSummary>;

/** evaluation_criteria.json: the metric the evaluator ranks nodes by; svc reads only that. */
export const EvaluationCriteria = T.Object({ primary_metric: T.Optional(T.String()) });
export type EvaluationCriteria = Static<typeof EvaluationCriteria>;

const Score = T.Optional(T.Union([T.Number(), T.Null()]));
/** review_report.json: svc reads only its score. */
export const ReviewScore = T.Object({ overall_score: Score, score: Score });
export type ReviewScore = Static<typeof ReviewScore>;

/**
 * evaluation/claim_evidence_hard_gate_{draft,final}.json, the claim gate's report: svc reads its
 * verdict and counts its findings; the findings and metrics themselves are shown as written.
 */
export const ClaimGateReport = T.Object(
  {
    phase: T.Union([T.Literal('draft'), T.Literal('final')]),
    policy: T.Object({ mode: T.String() }, { additionalProperties: true }),
    status: T.Union([T.Literal('pass'), T.Literal('warn'), T.Literal('fail'), T.Literal('off')]),
    should_block: T.Boolean(),
    errors: T.Array(T.Unknown()),
    warnings: T.Array(T.Unknown()),
  },
  { additionalProperties: true },
);
export type ClaimGateReport = Static<typeof ClaimGateReport>;

/** reproducibility_report.json as the summary reads it: the graded reproduction's score and whether it can be trusted. */
export const ReproducibilityReport = T.Object(
  {
    ors_score: T.Number({ minimum: 0, maximum: 1 }),
    n_runs: T.Integer({ minimum: 1 }),
    spread: T.Optional(T.Number({ minimum: 0 })),
    degraded: T.Boolean(),
    degraded_reason: T.Optional(T.String()),
    negative_control: T.Optional(T.Object({ passed: T.Union([T.Boolean(), T.Null()]) }, { additionalProperties: true })),
    run_timed_out: T.Optional(T.Boolean()),
  },
  { additionalProperties: true },
);
export type ReproducibilityReport = Static<typeof ReproducibilityReport>;

/** idea.json: the idea skill's result, kept verbatim; svc reads the fields below. */
export const IdeaFile = T.Object(
  {
    gap_analysis: T.Optional(T.String()),
    ideas: T.Array(
      T.Object(
        {
          title: T.String(),
          description: T.Optional(T.String()),
          novelty_score: T.Optional(T.Number()),
          feasibility_score: T.Optional(T.Number()),
          overall_score: T.Optional(T.Number()),
          experiment_plan: T.Optional(T.Unknown()),
          _pinned: T.Optional(T.Boolean()),
        },
        { additionalProperties: true },
      ),
    ),
    primary_metric: T.Optional(T.String()),
    higher_is_better: T.Optional(T.Boolean()),
    metric_rationale: T.Optional(T.String()),
    _root_choice: T.Optional(T.Unknown()),
    _inherited_from: T.Optional(T.Object({ parent_run_id: T.Optional(T.String()), index: T.Optional(T.Integer()) }, { additionalProperties: true })),
  },
  { additionalProperties: true },
);
export type IdeaFile = Static<typeof IdeaFile>;

/** launch_config.json: what the dashboard launched a run with. */
export const LaunchConfig = T.Object(
  {
    llm_model: T.Optional(T.String()),
    llm_provider: T.Optional(T.String()),
    profile: T.Optional(T.Union([T.String(), T.Null()])),
    max_nodes: T.Optional(T.Integer()),
    max_depth: T.Optional(T.Integer()),
    max_react: T.Optional(T.Integer()),
    timeout_node_s: T.Optional(T.Number()),
    parallel: T.Optional(T.Integer()),
    frontier_score: T.Optional(T.String()),
    composite: T.Optional(T.String()),
    axis_mode: T.Optional(T.String()),
    allow_web: T.Optional(T.Boolean()),
    partition: T.Optional(T.Union([T.String(), T.Null()])),
    phase_models: T.Optional(T.Record(T.String(), T.Unknown())),
    include_ear: T.Optional(T.Boolean()),
    include_review: T.Optional(T.Boolean()),
    include_reproduce: T.Optional(T.Boolean()),
  },
  { additionalProperties: true },
);
export type LaunchConfig = Static<typeof LaunchConfig>;

/** meta.json of a sub-experiment. */
export const RunMeta = T.Object(
  {
    run_id: T.Optional(T.String()),
    parent_run_id: T.Optional(T.Union([T.String(), T.Null()])),
    recursion_depth: T.Optional(T.Integer()),
    max_recursion_depth: T.Optional(T.Integer()),
    created_at: T.Optional(T.String()),
    inherit_idea_index: T.Optional(T.Union([T.Integer(), T.Null()])),
  },
  { additionalProperties: true },
);
export type RunMeta = Static<typeof RunMeta>;

/** One line of cost_trace.jsonl. */
export const CostTraceRecord = T.Object(
  {
    timestamp: T.Optional(T.String()),
    node_id: T.Optional(T.Union([T.String(), T.Null()])),
    phase: T.Optional(T.Union([T.String(), T.Null()])),
    skill: T.Optional(T.Union([T.String(), T.Null()])),
    model: T.Optional(T.String()),
    prompt_tokens: T.Optional(T.Number()),
    completion_tokens: T.Optional(T.Number()),
    total_tokens: T.Optional(T.Number()),
    estimated_cost_usd: T.Optional(T.Number()),
    latency_ms: T.Optional(T.Number()),
  },
  { additionalProperties: true },
);
export type CostTraceRecord = Static<typeof CostTraceRecord>;
