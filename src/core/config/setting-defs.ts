import type { Workflow } from '../../schema/workflow.ts';
import { BUILTIN_MODELS } from './env-vars.ts';

export type SettingValue = string | number | null;

/**
 * One effective setting and where each layer finds it. Layers, highest first:
 * an explicit value from the caller (a tool argument or flag), the environment (and .env files),
 * the --profile overlay, settings.json, the workflow file, then `envFallback`, `fallback`, `default`.
 */
export type SettingDef = {
  key: string;
  description: string;
  type: 'string' | 'int' | 'number';
  /** smallest allowed number (numbers must otherwise be positive) */
  min?: number;
  choices?: readonly string[];
  /** environment variables, highest first */
  env?: readonly string[];
  /** the environment wins even over an explicit value (the dashboard port) */
  envBeatsExplicit?: boolean;
  /** key in settings.json */
  saved?: string;
  /** other settings.json keys that mean the same (the dashboard's names), read after `saved` */
  savedAs?: readonly string[];
  /** a --profile may set it */
  profile?: boolean;
  /** where it sits in the workflow; an empty string there counts as unset */
  workflow?: (wf: Workflow) => unknown;
  workflowKey?: string;
  /** environment variables consulted after the workflow (a generic fallback) */
  envFallback?: readonly string[];
  /** another setting whose value is used when this one is unset */
  fallback?: string;
  default?: SettingValue | ((wf: Workflow, paths: { checkpointsRoot: string }) => SettingValue);
};

const model = (key: string, env: string, description: string): SettingDef => ({
  key,
  description,
  type: 'string',
  env: [env],
  saved: key,
  fallback: 'model',
});

/** Judges: their own variable, settings.json, then SVC_MODEL_EVAL, SVC_MODEL, SVC_LLM_MODEL, then a built-in hosted model. */
const judge = (key: string, env: string, description: string): SettingDef => ({
  key,
  description,
  type: 'string',
  env: [env],
  saved: key,
  envFallback: ['SVC_MODEL_EVAL', 'SVC_MODEL', 'SVC_LLM_MODEL'],
  default: BUILTIN_MODELS.judge,
});

const builtin = (key: string, env: string, description: string, model: string): SettingDef => ({ key, description, type: 'string', env: [env], saved: key, default: model });

export const SETTINGS: readonly SettingDef[] = [
  { key: 'model', description: 'model id of the run', type: 'string', env: ['SVC_MODEL', 'SVC_LLM_MODEL'], saved: 'llm_model', workflow: (w) => w.llm.model, workflowKey: 'llm.model' },
  { key: 'backend', description: 'model backend', type: 'string', env: ['SVC_BACKEND'], saved: 'llm_backend', savedAs: ['llm_provider'], workflow: (w) => w.llm.backend, workflowKey: 'llm.backend' },
  { key: 'base_url', description: 'model API base URL', type: 'string', saved: 'llm_base_url', workflow: (w) => w.llm.base_url, workflowKey: 'llm.base_url', envFallback: ['LLM_API_BASE'], default: null },
  model('model_idea', 'SVC_MODEL_IDEA', 'model for idea generation'),
  model('model_bfts', 'SVC_MODEL_BFTS', 'model for node selection and the agent'),
  model('model_paper', 'SVC_MODEL_PAPER', 'model for paper writing'),
  model('model_eval', 'SVC_MODEL_EVAL', 'model for node evaluation'),
  judge('model_lineage', 'SVC_MODEL_LINEAGE', 'lineage judge model'),
  judge('model_root_select', 'SVC_MODEL_ROOT_SELECT', 'root idea judge model'),
  builtin('model_rubric_gen', 'SVC_MODEL_RUBRIC_GEN', 'rubric generator model', BUILTIN_MODELS.replication),
  builtin('model_rubric_audit', 'SVC_MODEL_RUBRIC_AUDIT', 'rubric auditor model', BUILTIN_MODELS.replication),
  builtin('model_replicate', 'SVC_MODEL_REPLICATE', 'replicator model', BUILTIN_MODELS.replication),
  builtin('model_judge', 'SVC_MODEL_JUDGE', 'reproduction judge model', BUILTIN_MODELS.replication),
  { ...builtin('model_vlm', 'VLM_MODEL', 'figure review model', BUILTIN_MODELS.vision), savedAs: ['vlm_review_model'] },
  { key: 'localllm_host', description: 'local model daemon address', type: 'string', env: ['LOCALLLM_HOST'], saved: 'localllm_host', default: '127.0.0.1:11434' },
  { key: 'max_nodes', description: 'node cap', type: 'int', env: ['SVC_MAX_NODES'], saved: 'max_nodes', profile: true, workflow: (w) => w.bfts.max_nodes, workflowKey: 'bfts.max_nodes' },
  { key: 'max_depth', description: 'depth cap', type: 'int', env: ['SVC_MAX_DEPTH'], saved: 'max_depth', profile: true, workflow: (w) => w.bfts.max_depth, workflowKey: 'bfts.max_depth' },
  { key: 'parallel', description: 'concurrent nodes', type: 'int', env: ['SVC_PARALLEL'], saved: 'parallel', profile: true, workflow: (w) => w.bfts.parallel, workflowKey: 'bfts.parallel' },
  { key: 'max_react', description: 'ReAct steps per node', type: 'int', env: ['SVC_MAX_REACT'], saved: 'max_react', workflow: (w) => w.bfts.max_react, workflowKey: 'bfts.max_react' },
  { key: 'timeout_node', description: 'seconds per node', type: 'int', env: ['SVC_TIMEOUT_NODE'], saved: 'timeout_node_s', workflow: (w) => w.bfts.timeout_node, workflowKey: 'bfts.timeout_node' },
  { key: 'frontier_score', description: 'frontier score formula', type: 'string', env: ['SVC_FRONTIER_SCORE'], choices: ['scientific_plus_diversity', 'scientific_only', 'depth_penalized', 'ucb_like'], saved: 'frontier_score', workflow: (w) => w.bfts.frontier_score, workflowKey: 'bfts.frontier_score' },
  { key: 'executor', description: 'where node commands run', type: 'string', choices: ['local', 'slurm', 'pbs', 'lsf'], env: ['SVC_EXECUTOR'], saved: 'executor', profile: true, workflow: (w) => w.resources.executor, workflowKey: 'resources.executor' },
  // the explicit value is the experiment file's partition line; the scheduler's own first
  // partition comes after all of these, from the executor
  { key: 'partition', description: 'scheduler partition', type: 'string', env: ['SVC_SLURM_PARTITION'], saved: 'slurm_partition', profile: true, envFallback: ['SLURM_DEFAULT_PARTITION'], default: null },
  { key: 'cpus', description: 'CPUs per job', type: 'int', env: ['SVC_SLURM_CPUS'], saved: 'slurm_cpus', profile: true, workflow: (w) => w.resources.cpus, workflowKey: 'resources.cpus' },
  { key: 'mem_gb', description: 'memory per job, GB', type: 'number', saved: 'slurm_memory_gb', profile: true, default: null },
  {
    key: 'walltime',
    description: 'wall time per job',
    type: 'string',
    env: ['SVC_SLURM_WALLTIME'],
    saved: 'slurm_walltime',
    profile: true,
    workflow: (w) => minutesToWalltime(w.resources.timeout_minutes),
    workflowKey: 'resources.timeout_minutes',
  },
  { key: 'checkpoint_dir', description: 'checkpoint directory of a run', type: 'string', env: ['SVC_CHECKPOINT_DIR'], workflow: (w) => w.checkpoint?.dir, workflowKey: 'checkpoint.dir', default: (_w, p) => `${p.checkpointsRoot}/{run_id}` },
  // 0 asks the system for a free port
  { key: 'gui_port', description: 'dashboard port', type: 'int', min: 0, env: ['SVC_GUI_PORT'], envBeatsExplicit: true, default: 8765 },
  { key: 'gui_access_log_max_mb', description: 'dashboard access log rotation size, MB', type: 'number', min: 0.001, env: ['SVC_GUI_ACCESS_LOG_MAX_MB'], default: 100 },
  { key: 'retrieval_backend', description: 'literature search backend', type: 'string', choices: ['scholar_a', 'scholar_b', 'both'], env: ['SVC_RETRIEVAL_BACKEND'], saved: 'retrieval_backend', workflow: (w) => w.retrieval.backend, workflowKey: 'retrieval.backend' },
  { key: 'memory_base_url', description: 'memory server', type: 'string', env: ['MEMBACKEND_BASE_URL'], saved: 'memory_base_url', savedAs: ['membackend_base_url'], workflow: (w) => w.memory.membackend.base_url, workflowKey: 'memory.membackend.base_url' },
  { key: 'container_image', description: 'container image for node commands', type: 'string', env: ['SVC_CONTAINER_IMAGE'], saved: 'container_image', workflow: (w) => w.container.image, workflowKey: 'container.image', default: null },
  { key: 'rubric', description: 'reviewer rubric id', type: 'string', env: ['SVC_RUBRIC'], saved: 'rubric_id', default: 'neurips' },
  { key: 'num_reviews_ensemble', description: 'reviewers per paper', type: 'int', env: ['SVC_NUM_REVIEWS_ENSEMBLE'], saved: 'num_reviews_ensemble', default: 1 },
  { key: 'num_reflections', description: 'reviewer reflection rounds', type: 'int', env: ['SVC_NUM_REFLECTIONS'], saved: 'num_reflections', default: 5 },
  { key: 'fewshot_mode', description: 'few-shot review examples', type: 'string', choices: ['static', 'dynamic'], env: ['SVC_FEWSHOT_MODE'], saved: 'fewshot_mode', default: 'static' },
  { key: 'claim_gate_mode', description: 'claim gate mode', type: 'string', choices: ['off', 'warn', 'strict'], env: ['SVC_CLAIM_GATE_MODE'], workflow: (w) => w.claim_gate_policy.mode, workflowKey: 'claim_gate_policy.mode' },
  { key: 'comparison_scope', description: 'claim gate comparison scope', type: 'string', choices: ['any', 'same_environment'], env: ['SVC_COMPARISON_SCOPE'], workflow: (w) => w.claim_gate_policy.comparison_scope, workflowKey: 'claim_gate_policy.comparison_scope' },
  { key: 'paper_language', description: 'paper language', type: 'string', env: ['SVC_PAPER_LANGUAGE'], saved: 'language', default: 'en' },
  { key: 'work_dir', description: 'coding work directory', type: 'string', env: ['SVC_WORK_DIR'], default: '/tmp/svc_work' },
];

export function minutesToWalltime(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:00`;
}

const BY_KEY = new Map(SETTINGS.map((s) => [s.key, s]));
export function settingDef(key: string): SettingDef | undefined {
  return BY_KEY.get(key);
}
