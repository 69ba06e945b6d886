import type { Workflow } from '../../schema/workflow.ts';
import { PROFILE_NAMES } from './profiles.ts';

export type SettingType = 'string' | 'int' | 'number' | 'boolean' | 'strings';
export type SettingValue = string | number | boolean | readonly string[] | null;

/**
 * One setting: every place a value may come from, resolved by `resolveSetting` (config.ts) in one
 * order, highest first: an explicit value from the caller (a tool argument or flag),
 * settings.json, the environment (and .env files), the --profile overlay, the workflow file, then
 * `envFallback`, `fallback`, `default`.
 */
export type Setting = {
  /** the name `svc settings` and the run use; for a page-only entry, its settings.json name */
  key: string;
  type: SettingType;
  choices?: readonly string[];
  /** bounds of a number; without `min` it must be positive */
  min?: number;
  max?: number;
  /** environment variables, highest first; an unset one takes `default` (env-vars.ts reads it here) */
  env?: readonly string[];
  /** the environment wins even over an explicit value (the dashboard port) */
  envBeatsExplicit?: boolean;
  /** the run's own settings.json name, not shown on the dashboard */
  saved?: string;
  /** its names on the dashboard (`ors.x` sits in the `ors` block), read after `saved` */
  page?: readonly string[];
  /** settings.json and the dashboard only: no run setting, so `svc settings` and `effective` do not know it */
  pageOnly?: true;
  /** a --profile may set it */
  profile?: true;
  /** where it sits in the workflow; an empty string there counts as unset */
  workflow?: { at: string; get: (wf: Workflow) => unknown };
  /** environment variables consulted after the workflow (a generic fallback) */
  envFallback?: readonly string[];
  /** another setting whose value is used when this one is unset */
  fallback?: string;
  default?: SettingValue | ((wf: Workflow, paths: { checkpointsRoot: string }) => SettingValue);
};

/**
 * Hosted models the spec names as built-in defaults for roles that do not follow the run model.
 * A role whose model cannot be reached degrades as its own rules say (a lineage judge to continue).
 */
export const BUILTIN_MODELS = { judge: 'gpt-4o-mini', replication: 'gpt-5-mini', vision: 'gpt-4o' } as const;

/** A place in the workflow: its dotted name, for showing, and how to read it. */
const at = (name: string, get: (w: Workflow) => unknown) => ({ at: name, get });

/** Per-phase models: unset means the run model. */
const phaseModel = (key: string, env: string): Setting => ({ key, type: 'string', env: [env], page: [key], fallback: 'model' });

/** Judges: their own variable, settings.json, then SVC_MODEL_EVAL, SVC_MODEL, SVC_LLM_MODEL, then a built-in hosted model. */
const judge = (key: string, env: string): Setting => ({ key, type: 'string', env: [env], saved: key, envFallback: ['SVC_MODEL_EVAL', 'SVC_MODEL', 'SVC_LLM_MODEL'], default: BUILTIN_MODELS.judge });

const builtin = (key: string, env: string, model: string, page: string): Setting => ({ key, type: 'string', env: [env], saved: key, page: [page], default: model });

/** A key of settings.json and the dashboard that no run setting reads. */
const pageOnly = (key: string, type: SettingType, fallback: SettingValue, extra: Partial<Setting> = {}): Setting => ({ key, type, page: [key], pageOnly: true, default: fallback, ...extra });

export const SETTINGS: readonly Setting[] = [
  { key: 'model', type: 'string', env: ['SVC_MODEL', 'SVC_LLM_MODEL'], page: ['llm_model'], workflow: at('llm.model', (w) => w.llm.model) },
  { key: 'backend', type: 'string', env: ['SVC_BACKEND'], page: ['llm_backend', 'llm_provider'], workflow: at('llm.backend', (w) => w.llm.backend), default: 'localllm' },
  { key: 'base_url', type: 'string', page: ['llm_base_url'], workflow: at('llm.base_url', (w) => w.llm.base_url), envFallback: ['LLM_API_BASE'], default: null },
  phaseModel('model_idea', 'SVC_MODEL_IDEA'),
  phaseModel('model_bfts', 'SVC_MODEL_BFTS'),
  phaseModel('model_paper', 'SVC_MODEL_PAPER'),
  phaseModel('model_eval', 'SVC_MODEL_EVAL'),
  judge('model_lineage', 'SVC_MODEL_LINEAGE'),
  judge('model_root_select', 'SVC_MODEL_ROOT_SELECT'),
  builtin('model_rubric_gen', 'SVC_MODEL_RUBRIC_GEN', BUILTIN_MODELS.replication, 'ors.rubric_gen_model'),
  builtin('model_rubric_audit', 'SVC_MODEL_RUBRIC_AUDIT', BUILTIN_MODELS.replication, 'ors.rubric_audit_model'),
  builtin('model_replicate', 'SVC_MODEL_REPLICATE', BUILTIN_MODELS.replication, 'ors.replicator_model'),
  builtin('model_judge', 'SVC_MODEL_JUDGE', BUILTIN_MODELS.replication, 'ors.judge_model'),
  builtin('model_vlm', 'VLM_MODEL', BUILTIN_MODELS.vision, 'vlm_review_model'),
  { key: 'localllm_host', type: 'string', env: ['LOCALLLM_HOST'], page: ['localllm_host'], default: '127.0.0.1:11434' },
  { key: 'max_nodes', type: 'int', env: ['SVC_MAX_NODES'], saved: 'max_nodes', profile: true, workflow: at('bfts.max_nodes', (w) => w.bfts.max_nodes), default: 50 },
  { key: 'max_depth', type: 'int', env: ['SVC_MAX_DEPTH'], saved: 'max_depth', profile: true, workflow: at('bfts.max_depth', (w) => w.bfts.max_depth), default: 5 },
  { key: 'parallel', type: 'int', env: ['SVC_PARALLEL'], saved: 'parallel', profile: true, workflow: at('bfts.parallel', (w) => w.bfts.parallel), default: 4 },
  { key: 'max_react', type: 'int', env: ['SVC_MAX_REACT'], saved: 'max_react', workflow: at('bfts.max_react', (w) => w.bfts.max_react), default: 80 },
  { key: 'timeout_node', type: 'int', env: ['SVC_TIMEOUT_NODE'], saved: 'timeout_node_s', workflow: at('bfts.timeout_node', (w) => w.bfts.timeout_node), default: 7200 },
  { key: 'frontier_score', type: 'string', env: ['SVC_FRONTIER_SCORE'], choices: ['scientific_plus_diversity', 'scientific_only', 'depth_penalized', 'ucb_like'], saved: 'frontier_score', workflow: at('bfts.frontier_score', (w) => w.bfts.frontier_score) },
  { key: 'executor', type: 'string', choices: ['local', 'slurm', 'pbs', 'lsf'], env: ['SVC_EXECUTOR'], saved: 'executor', profile: true, workflow: at('resources.executor', (w) => w.resources.executor), default: 'local' },
  // the explicit value is the experiment file's partition line; the scheduler's own first
  // partition comes after all of these, from the executor
  { key: 'partition', type: 'string', env: ['SVC_SLURM_PARTITION'], page: ['slurm_partition'], profile: true, envFallback: ['SLURM_DEFAULT_PARTITION'], default: null },
  { key: 'cpus', type: 'int', min: 1, env: ['SVC_SLURM_CPUS'], page: ['slurm_cpus'], profile: true, workflow: at('resources.cpus', (w) => w.resources.cpus) },
  { key: 'mem_gb', type: 'number', page: ['slurm_memory_gb'], profile: true, default: null },
  // GPUs each node asks of Slurm; 0 asks for none
  { key: 'gpus', type: 'int', min: 0, env: ['SVC_SLURM_GPUS'], page: ['slurm_gpus'], profile: true, default: 0 },
  // the workflow gives a job's time limit in minutes
  { key: 'walltime', type: 'string', env: ['SVC_SLURM_WALLTIME'], page: ['slurm_walltime'], profile: true, workflow: at('resources.timeout_minutes', (w) => minutesToWalltime(w.resources.timeout_minutes)) },
  { key: 'checkpoint_dir', type: 'string', env: ['SVC_CHECKPOINT_DIR'], workflow: at('checkpoint.dir', (w) => w.checkpoint?.dir), default: (_w, p) => `${p.checkpointsRoot}/{run_id}` },
  // 0 asks the system for a free port
  { key: 'gui_port', type: 'int', min: 0, env: ['SVC_GUI_PORT'], envBeatsExplicit: true, default: 8765 },
  { key: 'gui_access_log_max_mb', type: 'number', min: 0.001, env: ['SVC_GUI_ACCESS_LOG_MAX_MB'], default: 100 },
  { key: 'retrieval_backend', type: 'string', choices: ['scholar_a', 'scholar_b', 'both'], env: ['SVC_RETRIEVAL_BACKEND'], page: ['retrieval_backend'], workflow: at('retrieval.backend', (w) => w.retrieval.backend), default: 'scholar_a' },
  // the web skill's fetch_url: private addresses are refused unless one of these lets it through
  { key: 'web_allow_private', type: 'boolean', env: ['SVC_WEB_ALLOW_PRIVATE'], workflow: at('web.allow_private', (w) => w.web?.allow_private), default: false },
  { key: 'web_allow_hosts', type: 'string', env: ['SVC_WEB_ALLOW_HOSTS'], workflow: at('web.allow_hosts', (w) => w.web?.allow_hosts?.join(',')), default: null },
  { key: 'memory_base_url', type: 'string', env: ['MEMBACKEND_BASE_URL'], saved: 'memory_base_url', page: ['membackend_base_url'], workflow: at('memory.membackend.base_url', (w) => w.memory.membackend.base_url), default: 'http://localhost:8283' },
  // the run's memory agent is created with it: `[backend/]model`, or default/none for BM25 alone
  { key: 'memory_embedding', type: 'string', env: ['MEMBACKEND_EMBEDDING_CONFIG'], page: ['membackend_embedding_config'], workflow: at('memory.membackend.embedding_config', (w) => w.memory.membackend.embedding_config), default: 'default' },
  { key: 'container_image', type: 'string', env: ['SVC_CONTAINER_IMAGE'], page: ['container_image'], workflow: at('container.image', (w) => w.container.image), default: null },
  { key: 'rubric', type: 'string', env: ['SVC_RUBRIC'], saved: 'rubric_id', default: 'neurips' },
  { key: 'num_reviews_ensemble', type: 'int', env: ['SVC_NUM_REVIEWS_ENSEMBLE'], saved: 'num_reviews_ensemble', default: 1 },
  { key: 'num_reflections', type: 'int', env: ['SVC_NUM_REFLECTIONS'], saved: 'num_reflections', default: 5 },
  { key: 'fewshot_mode', type: 'string', choices: ['static', 'dynamic'], env: ['SVC_FEWSHOT_MODE'], saved: 'fewshot_mode', default: 'static' },
  { key: 'claim_gate_mode', type: 'string', choices: ['off', 'warn', 'strict'], env: ['SVC_CLAIM_GATE_MODE'], workflow: at('claim_gate_policy.mode', (w) => w.claim_gate_policy.mode) },
  { key: 'comparison_scope', type: 'string', choices: ['any', 'same_environment'], env: ['SVC_COMPARISON_SCOPE'], workflow: at('claim_gate_policy.comparison_scope', (w) => w.claim_gate_policy.comparison_scope) },
  { key: 'paper_language', type: 'string', env: ['SVC_PAPER_LANGUAGE'], page: ['language'], default: 'en' },
  { key: 'work_dir', type: 'string', env: ['SVC_WORK_DIR'], default: '/tmp/svc_work' },
  pageOnly('temperature', 'number', 0.7, { min: 0, max: 2, workflow: at('llm.temperature', (w) => (w.llm as Record<string, unknown>).temperature) }),
  pageOnly('model_coding', 'string', ''),
  pageOnly('model_review', 'string', ''),
  pageOnly('slurm_partitions', 'strings', []),
  pageOnly('ssh_host', 'string', ''),
  pageOnly('ssh_port', 'int', 22, { min: 1, max: 65535 }),
  pageOnly('ssh_user', 'string', ''),
  pageOnly('ssh_key', 'string', ''),
  pageOnly('ssh_path', 'string', ''),
  pageOnly('container_mode', 'string', 'auto', { choices: ['auto', 'docker', 'podman', 'singularity', 'apptainer', 'none'], workflow: at('container.mode', (w) => w.container.mode) }),
  pageOnly('container_pull', 'string', 'on_start', { choices: ['always', 'on_start', 'never'], workflow: at('container.pull', (w) => w.container.pull) }),
  pageOnly('vlm_review_enabled', 'boolean', true),
  pageOnly('vlm_review_threshold', 'number', 0.7, { min: 0, max: 1 }),
  pageOnly('vlm_review_max_iter', 'int', 2, { min: 0 }),
  pageOnly('profile', 'string', '', { choices: PROFILE_NAMES }),
  // null: the generator's own temperature
  pageOnly('ors.rubric_gen_temperature', 'number', null, { min: 0, max: 2, env: ['SVC_RUBRIC_GEN_TEMPERATURE'] }),
  // 0: about one leaf per 75 words of the paper
  pageOnly('ors.rubric_gen_target_leaves', 'int', 0, { min: 0, env: ['SVC_RUBRIC_GEN_TARGET_LEAVES'] }),
  pageOnly('ors.rubric_gen_two_stage', 'boolean', false, { env: ['SVC_RUBRIC_GEN_TWO_STAGE'] }),
  pageOnly('ors.judge_n_runs', 'int', 3, { min: 1, workflow: at('pipeline[ors_grade].inputs.n_runs', (w) => w.pipeline.find((s) => s.stage === 'ors_grade' && s.enabled !== false)?.inputs?.n_runs) }),
  pageOnly('ors.phase1_max_runtime_sec', 'int', 3600, { min: 1 }),
  pageOnly('ors.phase1_sandbox_kind', 'string', 'auto', { choices: ['auto', 'slurm', 'docker', 'apptainer', 'singularity', 'local'], env: ['SVC_PHASE1_SANDBOX'] }),
];

export function minutesToWalltime(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:00`;
}

const BY_KEY = new Map(SETTINGS.map((s) => [s.key, s]));
const BY_PAGE_NAME = new Map(SETTINGS.flatMap((s) => (s.page ?? []).map((name) => [name, s] as const)));

export function setting(key: string): Setting | undefined {
  return BY_KEY.get(key);
}

/** The settings.json name a run setting is saved under. */
export function savedName(key: string): string {
  const s = BY_KEY.get(key);
  const name = s?.saved ?? s?.page?.[0];
  if (name === undefined) throw new Error(`no settings.json name for '${key}'`);
  return name;
}

/** The setting a dashboard name (`ors.x` inside the ors block) shows. */
export function pageSetting(name: string): Setting | undefined {
  return BY_PAGE_NAME.get(name);
}

/** A settings.json key svc knows: a setting's own name, or one of its names on the dashboard. */
export function isKnownSavedName(name: string): boolean {
  return BY_PAGE_NAME.has(name) || SETTINGS.some((s) => s.saved === name);
}

/**
 * The default of an environment variable a setting reads: the setting's own, as text. A variable
 * of a setting whose default depends on the checkpoints directory has none.
 */
export function variableDefault(name: string): string | null {
  const s = SETTINGS.find((x) => x.env?.includes(name));
  if (!s || s.default === undefined || s.default === null || typeof s.default === 'function') return null;
  return String(s.default);
}

/** A value of the setting's type within its rules, or undefined; text is read as the type. */
export function parseSetting(s: Setting, raw: unknown): SettingValue | undefined {
  switch (s.type) {
    case 'int':
    case 'number': {
      const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
      return inBounds(s, n) ? n : undefined;
    }
    case 'boolean':
      return typeof raw === 'boolean' ? raw : onOff(String(raw));
    case 'strings':
      return Array.isArray(raw) && raw.every((x) => typeof x === 'string') ? raw : undefined;
    case 'string': {
      const text = String(raw);
      return !s.choices || s.choices.includes(text) ? text : undefined;
    }
  }
}

/** What a value must be, as an error message says it. */
export function settingRule(s: Setting): string {
  if (s.type === 'boolean') return 'on or off';
  if (s.type === 'strings') return 'a list of strings';
  if (s.type === 'string') return s.choices ? `one of ${s.choices.join(', ')}` : 'a string';
  const kind = s.type === 'int' ? 'whole number' : 'number';
  const low = s.min === undefined ? `a positive ${kind}` : `a ${kind} of at least ${s.min}`;
  return s.max === undefined ? low : `${low} and at most ${s.max}`;
}

function inBounds(s: Setting, n: number): boolean {
  if (!Number.isFinite(n) || (s.type === 'int' && !Number.isInteger(n))) return false;
  const low = s.min === undefined ? n > 0 : n >= s.min;
  return low && (s.max === undefined || n <= s.max);
}

/** Switch text: 1/true/on/yes or 0/false/off/no, any case; undefined for anything else. */
export function onOff(text: string): boolean | undefined {
  if (/^(1|true|on|yes)$/i.test(text.trim())) return true;
  if (/^(0|false|off|no)$/i.test(text.trim())) return false;
  return undefined;
}
