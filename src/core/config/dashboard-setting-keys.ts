import type { Workflow } from '../../schema/workflow.ts';
import { BUILTIN_MODELS, envVar } from './env-vars.ts';
import { PROFILE_NAMES } from './profiles.ts';
import { minutesToWalltime, settingDef } from './setting-defs.ts';

export type DashboardKind = 'string' | 'int' | 'number' | 'boolean' | 'strings';

/**
 * One key of the dashboard's settings.json (the reference's names, svc's brands). Display order:
 * settings.json, the environment (`env`, highest first), the workflow, `envFallback`, `default`.
 */
export type DashboardKey = {
  key: string;
  kind: DashboardKind;
  choices?: readonly string[];
  min?: number;
  max?: number;
  env?: readonly string[];
  workflow?: (wf: Workflow) => unknown;
  envFallback?: readonly string[];
  default: unknown;
  /** the run setting (setting-defs.ts) it shows: its value is the one the run uses */
  setting?: string;
};

type Extra = Partial<Omit<DashboardKey, 'key' | 'kind'>>;

/** A key that means what a setting of setting-defs.ts means: its variables, workflow place and choices. */
function like(key: string, defKey: string, kind: DashboardKind, fallback: unknown, extra: Extra = {}): DashboardKey {
  const def = settingDef(defKey);
  if (!def) throw new Error(`setting-defs.ts has no '${defKey}'`);
  const out: DashboardKey = { key, kind, default: fallback, setting: defKey };
  if (def.env) out.env = def.env;
  if (def.workflow) out.workflow = def.workflow;
  if (def.envFallback) out.envFallback = def.envFallback;
  if (def.choices) out.choices = def.choices;
  return { ...out, ...extra };
}

const own = (key: string, kind: DashboardKind, fallback: unknown, extra: Extra = {}): DashboardKey => ({ key, kind, default: fallback, ...extra });

const envDefault = (name: string): string => envVar(name)?.default ?? '';

/** Per-phase models: empty means "the run model". */
const phaseModel = (key: string, defKey?: string): DashboardKey => (defKey ? like(key, defKey, 'string', '') : own(key, 'string', ''));

export const DASHBOARD_KEYS: readonly DashboardKey[] = [
  like('llm_provider', 'backend', 'string', envDefault('SVC_BACKEND')),
  like('llm_backend', 'backend', 'string', envDefault('SVC_BACKEND')),
  like('llm_model', 'model', 'string', ''),
  like('llm_base_url', 'base_url', 'string', ''),
  own('temperature', 'number', 0.7, { min: 0, max: 2, workflow: (w) => (w.llm as Record<string, unknown>).temperature }),
  like('localllm_host', 'localllm_host', 'string', envDefault('LOCALLLM_HOST')),
  phaseModel('model_bfts', 'model_bfts'),
  phaseModel('model_coding'),
  phaseModel('model_eval', 'model_eval'),
  phaseModel('model_idea', 'model_idea'),
  phaseModel('model_paper', 'model_paper'),
  phaseModel('model_review'),
  like('retrieval_backend', 'retrieval_backend', 'string', envDefault('SVC_RETRIEVAL_BACKEND')),
  like('slurm_partition', 'partition', 'string', ''),
  own('slurm_partitions', 'strings', []),
  like('slurm_cpus', 'cpus', 'int', null, { min: 1 }),
  like('slurm_memory_gb', 'mem_gb', 'number', null, { min: 0 }),
  // the workflow gives a job's time limit in minutes
  like('slurm_walltime', 'walltime', 'string', '', { workflow: (w) => minutesToWalltime(w.resources.timeout_minutes) }),
  own('ssh_host', 'string', ''),
  own('ssh_port', 'int', 22, { min: 1, max: 65535 }),
  own('ssh_user', 'string', ''),
  own('ssh_key', 'string', ''),
  own('ssh_path', 'string', ''),
  like('container_image', 'container_image', 'string', ''),
  own('container_mode', 'string', 'auto', { choices: ['auto', 'docker', 'podman', 'singularity', 'apptainer', 'none'], workflow: (w) => w.container.mode }),
  own('container_pull', 'string', 'on_start', { choices: ['always', 'on_start', 'never'], workflow: (w) => w.container.pull }),
  own('vlm_review_enabled', 'boolean', true),
  like('vlm_review_model', 'model_vlm', 'string', BUILTIN_MODELS.vision),
  own('vlm_review_threshold', 'number', 0.7, { min: 0, max: 1 }),
  own('vlm_review_max_iter', 'int', 2, { min: 0 }),
  like('membackend_base_url', 'memory_base_url', 'string', envDefault('MEMBACKEND_BASE_URL')),
  own('membackend_embedding_config', 'string', envDefault('MEMBACKEND_EMBEDDING_CONFIG'), {
    env: ['MEMBACKEND_EMBEDDING_CONFIG'],
    workflow: (w) => w.memory.membackend.embedding_config,
  }),
  like('language', 'paper_language', 'string', 'en'),
  own('profile', 'string', '', { choices: PROFILE_NAMES }),
];

/** The nested `ors` block: models and knobs of the reproducibility stages. */
export const ORS_KEYS: readonly DashboardKey[] = [
  like('replicator_model', 'model_replicate', 'string', BUILTIN_MODELS.replication),
  like('rubric_gen_model', 'model_rubric_gen', 'string', BUILTIN_MODELS.replication),
  like('rubric_audit_model', 'model_rubric_audit', 'string', BUILTIN_MODELS.replication),
  like('judge_model', 'model_judge', 'string', BUILTIN_MODELS.replication),
  // null: the generator's own temperature
  own('rubric_gen_temperature', 'number', null, { min: 0, max: 2, env: ['SVC_RUBRIC_GEN_TEMPERATURE'] }),
  // 0: about one leaf per 75 words of the paper
  own('rubric_gen_target_leaves', 'int', 0, { min: 0, env: ['SVC_RUBRIC_GEN_TARGET_LEAVES'] }),
  own('rubric_gen_two_stage', 'boolean', false, { env: ['SVC_RUBRIC_GEN_TWO_STAGE'] }),
  own('judge_n_runs', 'int', 3, { min: 1, workflow: (w) => w.pipeline.find((s) => s.stage === 'ors_grade' && s.enabled !== false)?.inputs?.n_runs }),
  own('phase1_max_runtime_sec', 'int', 3600, { min: 1 }),
  own('phase1_sandbox_kind', 'string', envDefault('SVC_PHASE1_SANDBOX'), {
    choices: ['auto', 'slurm', 'docker', 'apptainer', 'singularity', 'local'],
    env: ['SVC_PHASE1_SANDBOX'],
  }),
];

export const ORS = 'ors';

const TOP = new Map(DASHBOARD_KEYS.map((k) => [k.key, k]));
const NESTED = new Map(ORS_KEYS.map((k) => [k.key, k]));

export function dashboardKey(key: string): DashboardKey | undefined {
  return TOP.get(key);
}

export function orsKey(key: string): DashboardKey | undefined {
  return NESTED.get(key);
}
