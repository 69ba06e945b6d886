import { type Static, Type as T } from '@sinclair/typebox';
import { PROFILE_NAMES } from '../core/config/profiles.ts';
import { MA_LIMITS } from './ma-limits.ts';

/** Where node commands can run (the executor setting's choices). */
export const EXECUTORS = ['local', 'slurm', 'pbs', 'lsf'] as const;

/** Large enough for any real run; a larger number is a typo, and would only be cut by the run. */
const MAX_COUNT = 100_000;
/** A model or provider id longer than this is no id. */
const MAX_ID = 256;

const Count = T.Integer({ minimum: 1, maximum: MAX_COUNT, description: `a positive integer (at most ${MAX_COUNT})` });

/** The fields of a run request; a field's description is what its problem says it must be. */
const fields = {
  experiment_md: T.String({ pattern: '^(?=[\\s\\S]*\\S)[^\\u0000]*$', description: 'a non-empty Markdown string without NUL bytes' }),
  profile: T.Union(
    PROFILE_NAMES.map((p) => T.Literal(p)),
    { description: `one of ${PROFILE_NAMES.join(', ')}` },
  ),
  // which names are backends is the model layer's to say; the request checks it next
  provider: T.String({ minLength: 1, maxLength: MAX_ID, description: 'one of the model backends' }),
  model: T.String({ pattern: '^[^\\u0000-\\u001f]*\\S[^\\u0000-\\u001f]*$', maxLength: MAX_ID, description: `a non-empty model id of at most ${MAX_ID} characters on one line` }),
  max_nodes: Count,
  max_depth: Count,
  workers: Count,
};

const upTo = (max: number) => T.Integer({ minimum: 1, maximum: max, description: `a whole number from 1 to ${max}` });

/** POST /api/launch (and the orchestrator's run_experiment): only experiment_md is required. */
export const LaunchBody = T.Object({
  experiment_md: fields.experiment_md,
  profile: T.Optional(fields.profile),
  provider: T.Optional(fields.provider),
  model: T.Optional(fields.model),
  max_nodes: T.Optional(fields.max_nodes),
  max_depth: T.Optional(fields.max_depth),
  workers: T.Optional(fields.workers),
  // the multi-agent idea engine, under the reference dashboard's names (SVC_IDEA_MA_* in the run)
  vir_sci_real: T.Optional(T.Boolean({ description: 'true or false' })),
  vir_sci_k: T.Optional(upTo(MA_LIMITS.k)),
  vir_sci_team_size: T.Optional(upTo(MA_LIMITS.teamSize)),
  vir_sci_n_authors: T.Optional(upTo(MA_LIMITS.nAuthors)),
  vir_sci_n_papers: T.Optional(upTo(MA_LIMITS.nPapers)),
});
export type LaunchBody = Static<typeof LaunchBody>;

/** POST /api/sub-experiments/launch: the launch fields (experiment_md the parent's by default), the parent run and the idea to pin. */
export const SubExperimentBody = T.Object({
  ...LaunchBody.properties,
  experiment_md: T.Optional(fields.experiment_md),
  parent_run_id: T.Optional(T.String({ minLength: 1, description: 'a run id' })),
  inherit_idea_index: T.Optional(T.Union([T.Integer({ minimum: 0 }), T.Null()], { description: 'a whole number of at least 0' })),
});
export type SubExperimentBody = Static<typeof SubExperimentBody>;

/** A name on one line, as a partition or an image reference is. */
const OneLine = (what: string) => T.String({ pattern: '^[^\\u0000-\\u001f]*\\S[^\\u0000-\\u001f]*$', maxLength: 1000, description: `a non-empty ${what} on one line` });

/**
 * POST /api/launch from the dashboard: the run request, where its node commands run (ARI's field
 * names `partition`, `container_image`), and the staging id its provided files were uploaded under.
 */
export const DashboardLaunchBody = T.Object({
  ...LaunchBody.properties,
  executor: T.Optional(T.Union(EXECUTORS.map((e) => T.Literal(e)), { description: `one of ${EXECUTORS.join(', ')}` })),
  partition: T.Optional(OneLine('partition name')),
  container_image: T.Optional(OneLine('image reference')),
  staging: T.Optional(T.String({ pattern: '^[A-Za-z0-9_-]{8,64}$', description: 'the staging id the files were uploaded under (8 to 64 letters, digits, _ or -)' })),
});
export type DashboardLaunchBody = Static<typeof DashboardLaunchBody>;
