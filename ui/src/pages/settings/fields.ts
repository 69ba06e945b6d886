// The settings each section edits: their names in /api/settings (`ors.x` sits in the ors block) and how they are entered.

export type Field = {
  key: string;
  label: string;
  kind: 'text' | 'number' | 'int' | 'boolean' | 'choice';
  choices?: readonly string[];
  /** suggestions offered while typing (a datalist) */
  suggest?: 'backends' | 'models';
  hint?: string;
};

const text = (key: string, label: string, extra: Partial<Field> = {}): Field => ({ key, label, kind: 'text', ...extra });
const int = (key: string, label: string, hint?: string): Field => ({ key, label, kind: 'int', ...(hint ? { hint } : {}) });
const num = (key: string, label: string, hint?: string): Field => ({ key, label, kind: 'number', ...(hint ? { hint } : {}) });
const choice = (key: string, label: string, choices: readonly string[]): Field => ({ key, label, kind: 'choice', choices });
const flag = (key: string, label: string): Field => ({ key, label, kind: 'boolean' });
const model = (key: string, label: string): Field => text(key, label, { suggest: 'models', hint: 'empty: the run model' });

/** Model backends svc speaks to (openai, anthropic, ollama and vllm are read as their aliases). */
export const BACKENDS = ['localllm', 'providera', 'providerb', 'openai-compatible', 'replay'];

export const MODEL_FIELDS: Field[] = [
  text('llm_backend', 'Backend', { suggest: 'backends' }),
  text('llm_model', 'Run model', { suggest: 'models' }),
  text('llm_base_url', 'API base URL', { hint: 'empty: the backend default' }),
  num('temperature', 'Temperature', '0 to 2'),
  text('localllm_host', 'Local model daemon (host:port)'),
];

export const PHASE_MODEL_FIELDS: Field[] = [
  model('model_idea', 'Ideas'),
  model('model_bfts', 'Search and agent'),
  model('model_coding', 'Coding'),
  model('model_paper', 'Paper writing'),
  model('model_review', 'Paper review'),
  model('model_eval', 'Evaluation'),
  text('vlm_review_model', 'Figure review (vision)', { suggest: 'models' }),
  text('ors.rubric_gen_model', 'Reproduction: rubric', { suggest: 'models' }),
  text('ors.rubric_audit_model', 'Reproduction: rubric audit', { suggest: 'models' }),
  text('ors.replicator_model', 'Reproduction: replicator', { suggest: 'models' }),
  text('ors.judge_model', 'Reproduction: judge', { suggest: 'models' }),
];

export const MEMORY_FIELDS: Field[] = [text('membackend_base_url', 'Memory server URL'), text('membackend_embedding_config', 'Embedding configuration')];

export const SLURM_FIELDS: Field[] = [
  text('slurm_partition', 'Partition', { hint: 'empty: the scheduler default' }),
  int('slurm_cpus', 'CPUs per job'),
  num('slurm_memory_gb', 'Memory per job (GB)'),
  int('slurm_gpus', 'GPUs per job', '0 asks for none'),
  text('slurm_walltime', 'Wall time (HH:MM:SS)'),
];

export const CONTAINER_FIELDS: Field[] = [
  text('container_image', 'Image', { hint: 'empty: no container' }),
  choice('container_mode', 'Runtime', ['auto', 'docker', 'podman', 'singularity', 'apptainer', 'none']),
  choice('container_pull', 'Pull', ['always', 'on_start', 'never']),
];

export const SSH_FIELDS: Field[] = [
  text('ssh_host', 'Host'),
  int('ssh_port', 'Port'),
  text('ssh_user', 'User'),
  text('ssh_key', 'Key file', { hint: 'path of the private key' }),
  text('ssh_path', 'Remote project directory'),
];

export const PROFILE_FIELDS = (names: string[]): Field[] => [choice('profile', 'Profile of new runs', ['', ...names])];

export const REVIEW_FIELDS: Field[] = [
  choice('retrieval_backend', 'Literature search', ['scholar_a', 'scholar_b', 'both']),
  text('language', 'Paper language'),
  flag('vlm_review_enabled', 'Review figures with the vision model'),
  num('vlm_review_threshold', 'Figure review threshold', '0 to 1'),
  int('vlm_review_max_iter', 'Figure review rounds'),
];

export const REPRODUCTION_FIELDS: Field[] = [
  num('ors.rubric_gen_temperature', 'Rubric temperature', 'empty: the model default'),
  int('ors.rubric_gen_target_leaves', 'Rubric leaves', '0: one per 75 words of the paper'),
  flag('ors.rubric_gen_two_stage', 'Generate the rubric in two stages'),
  int('ors.judge_n_runs', 'Judge runs'),
  int('ors.phase1_max_runtime_sec', 'Reproduction time limit (s)'),
  choice('ors.phase1_sandbox_kind', 'Reproduction sandbox', ['auto', 'slurm', 'docker', 'apptainer', 'singularity', 'local']),
];
