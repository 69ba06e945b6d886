import { type Static, Type as T } from '@sinclair/typebox';

// The records of the reproducibility benchmark API (`/api/bench/`, `svc bench`): the paper
// registry's manifest entries, the run request and its three configs, the job as it is kept and
// shown, its log lines and its cost estimate. Bodies may carry fields a schema does not name (the
// reference's web UI sends its own), and they are ignored.

const OPEN = { additionalProperties: true };
/** A title or source: one rule for import and patch, so what an import refuses a patch cannot write. */
const NotBlank = T.String({ minLength: 1, maxLength: 2000, pattern: '\\S', description: 'not blank' });

export const SOURCE_TYPES = ['arxiv', 'doi', 'upload', 'local'] as const;
export const SourceType = T.Union(SOURCE_TYPES.map((s) => T.Literal(s)));

/** What a paper's license allows, classified from its name (never a hard block: a warning at most). */
export const LicenseAssessment = T.Object({
  license: T.String(),
  permissive: T.Boolean(),
  modifiable: T.Boolean(),
  redistributable: T.Boolean(),
  non_commercial: T.Boolean(),
  usable: T.Boolean(),
  note: T.String(),
});
export type LicenseAssessment = Static<typeof LicenseAssessment>;

/** One line of `manifest.jsonl`, keys sorted. */
export const ManifestEntry = T.Object({
  paper_id: T.String({ pattern: '^[A-Za-z0-9._-]{1,64}$' }),
  title: T.String(),
  authors: T.Array(T.String()),
  venue: T.String(),
  year: T.Union([T.Integer(), T.Null()]),
  source_type: SourceType,
  source: T.String(),
  artifact_url: T.String(),
  license: T.String(),
  license_assessment: LicenseAssessment,
  imported_at: T.String(),
  registry_dir: T.String(),
});
export type ManifestEntry = Static<typeof ManifestEntry>;

/** POST /api/bench/papers/import */
export const ImportBody = T.Object(
  {
    source_type: SourceType,
    source: NotBlank,
    title: NotBlank,
    license: T.Optional(T.String({ maxLength: 200 })),
    authors: T.Optional(T.Array(T.String({ maxLength: 500 }), { maxItems: 1000 })),
    venue: T.Optional(T.String({ maxLength: 500 })),
    year: T.Optional(T.Union([T.Integer({ minimum: 0, maximum: 9999 }), T.Null()])),
    artifact_url: T.Optional(T.String({ maxLength: 2000 })),
    paper_id: T.Optional(T.String({ maxLength: 1000 })),
    pdf_path: T.Optional(T.String({ maxLength: 4096 })),
    ad_pdf_path: T.Optional(T.String({ maxLength: 4096 })),
    ae_pdf_path: T.Optional(T.String({ maxLength: 4096 })),
    overwrite: T.Optional(T.Boolean()),
  },
  OPEN,
);
export type ImportBody = Static<typeof ImportBody>;

/** POST /api/bench/papers/<paper_id>/metadata: any subset of the writable fields of an import; paper_id is not one. */
export const MetadataPatch = T.Partial(T.Pick(ImportBody, ['title', 'license', 'authors', 'venue', 'year', 'artifact_url', 'source', 'source_type']), OPEN);
export type MetadataPatch = Static<typeof MetadataPatch>;

/** GET /api/bench/arxiv/<id> */
export const PreprintMetadata = T.Object({
  arxiv_id: T.String(),
  title: T.String(),
  authors: T.Array(T.String()),
  year: T.Union([T.Integer(), T.Null()]),
  license: T.String(),
  license_assessment: LicenseAssessment,
  pdf_url: T.String(),
  abs_url: T.String(),
});
export type PreprintMetadata = Static<typeof PreprintMetadata>;

export const RubricConfig = T.Object(
  {
    model: T.Optional(T.String({ maxLength: 200 })),
    two_stage: T.Optional(T.Boolean()),
    target_leaf_count: T.Optional(T.Integer({ minimum: 0, maximum: 400 })),
    temperature: T.Optional(T.Number({ minimum: 0, maximum: 2 })),
  },
  OPEN,
);
export type RubricConfig = Static<typeof RubricConfig>;

export const ReproduceConfig = T.Object(
  {
    model: T.Optional(T.String({ maxLength: 200 })),
    time_limit_sec: T.Optional(T.Integer({ minimum: 1, maximum: 30 * 86400 })),
    iterative_agent: T.Optional(T.Boolean()),
    max_steps: T.Optional(T.Integer({ minimum: 0, maximum: 1000 })),
    sandbox_kind: T.Optional(T.String({ maxLength: 40 })),
    container_image: T.Optional(T.String({ maxLength: 500 })),
    partition: T.Optional(T.String({ maxLength: 200 })),
    nodes: T.Optional(T.Integer({ minimum: 0 })),
    ntasks: T.Optional(T.Integer({ minimum: 0 })),
    ntasks_per_node: T.Optional(T.Integer({ minimum: 0 })),
    exclusive: T.Optional(T.Boolean()),
    gpus_per_task: T.Optional(T.Integer({ minimum: 0 })),
    gpu_type: T.Optional(T.String({ maxLength: 100 })),
    memory_gb_per_node: T.Optional(T.Integer({ minimum: 0 })),
    constraint: T.Optional(T.String({ maxLength: 200 })),
    cpu_bind: T.Optional(T.String({ maxLength: 100 })),
    extra_sbatch_args: T.Optional(T.Array(T.String({ maxLength: 500 }), { maxItems: 100 })),
    forbid_host_filesystem: T.Optional(T.Boolean()),
    blacklist_urls: T.Optional(T.Array(T.String({ maxLength: 2000 }), { maxItems: 1000 })),
    salvage_retries: T.Optional(T.Integer({ minimum: 0, maximum: 10 })),
    retry_threshold_sec: T.Optional(T.Number({ minimum: 0 })),
    capture_tarball: T.Optional(T.Boolean()),
  },
  OPEN,
);
export type ReproduceConfig = Static<typeof ReproduceConfig>;

export const JudgeConfig = T.Object(
  {
    model: T.Optional(T.String({ maxLength: 200 })),
    n_runs: T.Optional(T.Integer({ minimum: 0, maximum: 10 })),
    code_only: T.Optional(T.Boolean()),
    skip_negative_control: T.Optional(T.Boolean()),
    paper_audit_mode: T.Optional(T.Boolean()),
  },
  OPEN,
);
export type JudgeConfig = Static<typeof JudgeConfig>;

const configs = {
  rubric_config: T.Optional(RubricConfig),
  reproduce_config: T.Optional(ReproduceConfig),
  judge_config: T.Optional(JudgeConfig),
};

/** POST /api/bench/run */
export const RunRequest = T.Object({ paper_ids: T.Array(T.String({ maxLength: 1000 }), { maxItems: 1000 }), ...configs, dry_run: T.Optional(T.Boolean()) }, OPEN);
export type RunRequest = Static<typeof RunRequest>;

/** POST /api/bench/cost-estimate: the run request without paper_ids and dry_run */
export const CostEstimateBody = T.Object(configs, OPEN);
export type CostEstimateBody = Static<typeof CostEstimateBody>;

/** The configs a job keeps, as given (defaults are applied when the job runs). */
export type JobConfigs = { rubric: RubricConfig; reproduce: ReproduceConfig; judge: JudgeConfig };

const Part = T.Object({ wall_time_sec: T.Integer(), cost_usd: T.Number() });
/** One paper's projected wall time and model spend; the totals are the sums of the breakdown. */
export const CostEstimate = T.Object({ wall_time_sec: T.Integer(), llm_cost_usd: T.Number(), breakdown: T.Object({ rubric: Part, reproduce: Part, judge: Part }) });
export type CostEstimate = Static<typeof CostEstimate>;

export const JOB_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const JOB_STAGES = ['queued', 'rubric', 'reproduce_build', 'reproduce_run', 'grade', 'completed', 'failed'] as const;
export type JobStage = (typeof JOB_STAGES)[number];
/** The progress a job reports when it enters each stage. */
export const STAGE_PROGRESS: Record<'rubric' | 'reproduce_build' | 'reproduce_run' | 'grade' | 'completed', number> = {
  rubric: 0.05,
  reproduce_build: 0.25,
  reproduce_run: 0.55,
  grade: 0.85,
  completed: 1,
};

export const LOG_LEVELS = ['info', 'success', 'warning', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
/** One line of a job's log: the `data` of a `log` event, whose id is the line's index from 0. */
export type JobLogEntry = { ts: string; level: LogLevel; msg: string };

/** GET /api/bench/run/<job_id> */
export type JobSnapshot = {
  job_id: string;
  paper_id: string;
  status: JobStatus;
  current_stage: JobStage;
  progress: number;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  configs: JobConfigs;
  /** why a failed job failed; for a job the server lost while it ran, which stage it was in */
  error: string | null;
  log_count: number;
};

/**
 * GET /api/bench/run/<job_id>/results of a completed job: what each stage returned, where its
 * files are (`run_dir` is `<registry>/papers/<paper_id>/runs/<job_id>/`), and the grade's headline.
 */
export type JobResults = {
  paper_id: string;
  run_dir: string;
  rubric_path: string;
  repo_dir: string;
  rubric_manifest: unknown;
  /** the rubric tree, as written to rubric.json */
  rubric: unknown;
  reproduce_build: unknown;
  reproduce_run: unknown;
  grade: unknown;
  ors_score: number;
  leaves: number;
  negative_control: unknown;
};
