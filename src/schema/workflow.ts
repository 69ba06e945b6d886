import { type Static, Type as T } from '@sinclair/typebox';

/** One of the four phases a skill serves in; `none` switches a skill off. */
export const Phase = T.Union([T.Literal('bfts'), T.Literal('paper'), T.Literal('reproduce'), T.Literal('none')]);
export type Phase = Static<typeof Phase>;

const Enum = <const V extends string[]>(values: V, description?: string) =>
  T.Union(
    values.map((v) => T.Literal(v)),
    description ? { description } : {},
  );

export const Stage = T.Object(
  {
    stage: T.String({ minLength: 1, description: 'unique name of the stage in its list' }),
    skill: T.Optional(T.String({ description: 'skill that serves the tool (foo is read as foo-skill)' })),
    tool: T.Optional(T.String()),
    description: T.Optional(T.String()),
    phase: T.Optional(T.Union([Phase, T.Array(Phase)])),
    inputs: T.Optional(T.Record(T.String(), T.Unknown(), { description: 'tool arguments; strings may use {{template}} variables' })),
    outputs: T.Optional(T.Object({ file: T.Optional(T.String()) })),
    depends_on: T.Optional(T.Union([T.Array(T.String()), T.String()])),
    skip_if_exists: T.Optional(T.String({ description: 'skip when this file exists, is non-empty and is not JSON with a top-level error key' })),
    loop_back_to: T.Optional(T.String({ description: 'a stage at or above this one to run again from when the result scores below loop_threshold' })),
    loop_threshold: T.Optional(T.Number({ description: "loop back when the result's score is below it" })),
    loop_max_iterations: T.Optional(T.Integer({ minimum: 0, description: 'most loop-backs from this stage (default 2)' })),
    loop_when_result_key: T.Optional(T.String({ description: 'also loop back when this key of the result is truthy' })),
    enabled: T.Optional(T.Boolean()),
  },
  { additionalProperties: true },
);
export type Stage = Static<typeof Stage>;

export const Skill = T.Object(
  {
    name: T.String({ minLength: 1 }),
    path: T.String({ description: '`builtin` for a skill inside the binary, else the directory or command of an MCP server; may use {{ari_root}}' }),
    phase: T.Union([Phase, T.Array(Phase)]),
    description: T.Optional(T.String()),
  },
  { additionalProperties: true },
);

const Llm = T.Object(
  {
    backend: T.String({ description: 'provider identifier' }),
    model: T.String(),
    base_url: T.String({ description: 'empty for the provider default' }),
  },
  { additionalProperties: true },
);

const Resources = T.Object(
  {
    cpus: T.Integer({ minimum: 1 }),
    timeout_minutes: T.Integer({ minimum: 1 }),
    executor: Enum(['slurm', 'local', 'pbs', 'lsf']),
  },
  { additionalProperties: true },
);

const Retrieval = T.Object(
  {
    backend: Enum(['scholar_a', 'scholar_b', 'both']),
    endpoint: T.String({ description: 'endpoint of the second provider' }),
    library: T.String({ description: "a BibTeX file of the researcher's own references, searched with the providers (offline too) and cited under its own keys; relative to the workflow file; empty: none" }),
  },
  { additionalProperties: true },
);

const Web = T.Object(
  {
    allow_private: T.Boolean({ description: 'let fetch_url reach loopback, link-local and private addresses (the dashboard, the memory server, the local network)' }),
    allow_hosts: T.Array(T.String(), { description: 'hosts (name or address, with :port for one port only) fetch_url may reach although they are private' }),
  },
  { additionalProperties: true },
);

const MemoryServer = T.Object(
  {
    base_url: T.String(),
    collection_prefix: T.String(),
    embedding_config: T.String(),
  },
  { additionalProperties: true },
);

const Memory = T.Object(
  {
    backend: T.String(),
    membackend: MemoryServer,
  },
  { additionalProperties: true },
);

const Container = T.Object(
  {
    mode: Enum(['auto', 'docker', 'podman', 'singularity', 'apptainer', 'none']),
    image: T.String({ description: 'empty means no container' }),
    pull: Enum(['always', 'on_start', 'never']),
    network: T.Boolean({ description: 'let node commands in the container use the network (docker, podman; apptainer and singularity always share the host network)' }),
  },
  { additionalProperties: true },
);

const LineageDecision = T.Object(
  {
    mode: Enum(['off', 'stagnation_rule', 'every_node']),
    stagnation_window: T.Integer({ minimum: 1 }),
    stagnation_threshold: T.Number({ minimum: 0, description: 'stagnant when max minus min of the window is below it' }),
    min_nodes_before_decision: T.Integer({ minimum: 0 }),
    rate_limit_per_run: T.Integer({ minimum: 0 }),
  },
  { additionalProperties: true },
);

const ClaimGatePolicy = T.Object(
  {
    mode: Enum(['off', 'warn', 'strict']),
    comparison_scope: Enum(['any', 'same_environment']),
    numeric_coverage: T.Object({
      target_sections: T.Object({
        strict: T.Array(T.String()),
        warn: T.Array(T.String()),
        excluded: T.Array(T.String()),
      }),
    }),
    numeric_match: T.Object({
      default_tolerance: T.Object({ absolute: T.Number({ minimum: 0 }), relative: T.Number({ minimum: 0 }) }),
    }),
    blocking: T.Object({ block_on: T.Array(T.String()) }),
  },
  { additionalProperties: true },
);

const Bfts = T.Object(
  {
    frontier_score: Enum(['scientific_plus_diversity', 'scientific_only', 'depth_penalized', 'ucb_like']),
    depth_penalty_lambda: T.Number({ minimum: 0 }),
    ucb_c: T.Number({ minimum: 0 }),
    select_prompt: T.String({ description: 'prompt template with {experiment_goal}, {memory_context}, {candidates}' }),
    expand_select_prompt: T.String({ description: 'prompt template with {experiment_goal}, {candidates}' }),
    max_nodes: T.Integer({ minimum: 1, description: 'node cap (SVC_MAX_NODES wins)' }),
    max_depth: T.Integer({ minimum: 1, description: 'depth cap (SVC_MAX_DEPTH wins)' }),
    parallel: T.Integer({ minimum: 1, description: 'concurrent nodes (SVC_PARALLEL wins)' }),
    max_react: T.Integer({ minimum: 1, description: 'ReAct steps per node (SVC_MAX_REACT wins)' }),
    timeout_node: T.Integer({ minimum: 1, description: 'seconds per node (SVC_TIMEOUT_NODE wins)' }),
    max_expansions_per_node: T.Integer({ minimum: 1 }),
  },
  { additionalProperties: true },
);

const Evaluator = T.Object(
  {
    composite: Enum(['harmonic_mean', 'arithmetic_mean', 'weighted_min', 'geometric_mean']),
    axis_mode: Enum(['dynamic', 'legacy', 'custom']),
    custom_axes: T.Array(T.Object({ name: T.String({ minLength: 1 }), description: T.String(), weight: T.Number({ minimum: 0 }) })),
    axis_weights: T.Record(T.String(), T.Number({ minimum: 0 })),
  },
  { additionalProperties: true },
);

/**
 * The effective workflow: a workflow file laid over the bundled default, so every key is present.
 * Unknown keys are kept (files written by other tools carry extra ones); known keys are checked.
 */
export const Workflow = T.Object(
  {
    llm: Llm,
    author_name: T.String(),
    paper_context: T.Optional(T.String({ description: 'what the paper stages are told about the run before the idea, the experiment and the best nodes ({{paper_context}})' })),
    resources: Resources,
    bfts_pipeline: T.Array(Stage),
    pipeline: T.Array(Stage),
    retrieval: Retrieval,
    web: T.Optional(Web),
    memory: Memory,
    container: Container,
    skills: T.Array(Skill),
    plan_promote: Enum(['full', 'index_only', 'off']),
    lineage_decision: LineageDecision,
    root_idea_selection: T.Object({ enabled: T.Boolean() }, { additionalProperties: true }),
    claim_gate_policy: ClaimGatePolicy,
    bfts: Bfts,
    evaluator: Evaluator,
    checkpoint: T.Optional(T.Object({ dir: T.Optional(T.String()) }, { additionalProperties: true })),
    disabled_tools: T.Optional(T.Array(T.String())),
  },
  {
    $id: 'https://svc.dev/schemas/workflow.schema.json',
    title: 'svc workflow.yaml',
    description: 'A workflow file is laid over the bundled default: keys it leaves out keep their default, lists it gives replace the default list.',
    additionalProperties: true,
  },
);
export type Workflow = Static<typeof Workflow>;
