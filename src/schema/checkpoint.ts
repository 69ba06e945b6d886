import { type Static, Type as T } from '@sinclair/typebox';

/** Node statuses svc writes; readers also accept `completed` and `done` from older files as success. */
export const NodeStatus = T.Union([
  T.Literal('pending'),
  T.Literal('running'),
  T.Literal('success'),
  T.Literal('failed'),
  T.Literal('abandoned'),
]);
export type NodeStatus = Static<typeof NodeStatus>;

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
    by_phase: T.Record(T.String(), T.Object({ cost_usd: T.Number(), tokens: T.Integer() })),
    by_model: T.Record(T.String(), T.Object({ cost_usd: T.Number(), tokens: T.Integer() })),
  },
  { additionalProperties: true },
);
export type CostSummary = Static<typeof CostSummary>;
