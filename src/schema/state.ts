import { type Static, Type as T } from '@sinclair/typebox';

const Int = T.Integer({ minimum: 0 });

/** The keys GET /state always carries, selected checkpoint or not (spec: asserted as a subset). */
export const StateAlways = T.Object(
  {
    running_pid: T.Union([T.Integer(), T.Null()]),
    is_running: T.Boolean(),
    exit_code: T.Union([T.Integer(), T.Null()]),
    running: T.Boolean(),
    pid: T.Union([T.Integer(), T.Null()]),
    status_label: T.String(),
  },
  { additionalProperties: true },
);

/** Run phases in the order a run reaches them. */
export const Phase = T.Union(['idle', 'idea', 'bfts', 'paper', 'review'].map((p) => T.Literal(p)));
export type Phase = 'idle' | 'idea' | 'bfts' | 'paper' | 'review';

/** What GET /state adds when a checkpoint is selected. */
export const StateSnapshot = T.Intersect([
  StateAlways,
  T.Object({
    checkpoint_id: T.Optional(T.String()),
    checkpoint_path: T.Optional(T.String()),
    status: T.Optional(T.String()),
    phase: T.Optional(Phase),
    nodes: T.Optional(T.Object({ total: Int, completed: Int, running: Int, failed: Int, pending: Int })),
    model: T.Optional(T.Object({ provider: T.String(), model: T.String() })),
    cost: T.Optional(T.Object({ usd: T.Number(), tokens: Int, calls: Int })),
    best: T.Optional(T.Union([T.Object({ id: T.String(), score: T.Number(), metric: T.Union([T.String(), T.Null()]), value: T.Union([T.Number(), T.Null()]) }), T.Null()])),
    updated_at: T.Optional(T.String()),
    /** the workflow's enabled post-search stages in order, each done once its output file is usable */
    stages: T.Optional(T.Array(T.Object({ stage: T.String(), status: T.Union([T.Literal('done'), T.Literal('pending'), T.Literal('unknown')]) }))),
  }),
]);
export type StateSnapshot = Static<typeof StateSnapshot>;
