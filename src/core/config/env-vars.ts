import { InputError } from '../errors.ts';
import { onOff, variableDefault } from './settings.ts';

/**
 * Every environment variable svc reads, with its meaning and default. `svc settings --env` prints
 * this table and the dashboard's env-keys endpoint lists its names; values of secrets are never shown.
 * An empty value counts as unset.
 */
export type EnvVar = {
  name: string;
  meaning: string;
  /** null: no default (unset means off or not configured) */
  default: string | null;
  secret?: boolean;
  /** it says where svc sends requests, bundles or keys (a host, an API base, a registry list) */
  routing?: boolean;
};

/** The variable holding each model backend's key; the local daemon and replay need none. */
export const KEY_VARIABLE: Readonly<Record<string, string>> = {
  providera: 'PROVIDERA_API_KEY',
  providerb: 'PROVIDERB_API_KEY',
  'openai-compatible': 'LLM_API_KEY',
};

/** A variable; one a setting reads states no default here: the setting's (settings.ts) is its default. */
const v = (name: string, meaning: string, def: string | null = variableDefault(name), secret = false): EnvVar =>
  secret ? { name, meaning, default: def, secret } : { name, meaning, default: def };
/** A variable that says where requests go: a page of another origin may not change it unconfirmed. */
const route = (name: string, meaning: string, def: string | null = variableDefault(name)): EnvVar => ({ name, meaning, default: def, routing: true });

export const ENV_VARS: readonly EnvVar[] = [
  v('SVC_ROOT', 'project root ({{ari_root}}); auto-detected when unset', null),
  v('SVC_BACKEND', 'model backend'),
  v('SVC_MODEL', 'model id (wins over SVC_LLM_MODEL)'),
  v('SVC_LLM_MODEL', 'model id'),
  v('SVC_MODEL_IDEA', 'model for idea generation; falls back to the run model'),
  v('SVC_MODEL_BFTS', 'model for node selection and the agent; falls back to the run model'),
  v('SVC_MODEL_PAPER', 'model for paper writing; falls back to the run model'),
  v('SVC_MODEL_EVAL', 'model for node evaluation; falls back to the run model'),
  v('SVC_MODEL_LINEAGE', 'lineage judge; falls back through SVC_MODEL_EVAL, SVC_MODEL, SVC_LLM_MODEL, then a built-in hosted model'),
  v('SVC_MODEL_ROOT_SELECT', 'root idea judge; falls back through SVC_MODEL_EVAL, SVC_MODEL, SVC_LLM_MODEL, then a built-in hosted model'),
  v('SVC_MODEL_RUBRIC_GEN', 'rubric generator model'),
  v('SVC_MODEL_RUBRIC_AUDIT', 'rubric auditor model'),
  v('SVC_MODEL_REPLICATE', 'replicator model'),
  v('SVC_MODEL_JUDGE', 'reproduction judge model'),
  v('SVC_JUDGE_CONCURRENCY', 'judge calls grade_with_judge makes at once (1 to 64)', '8'),
  v('PROVIDERA_API_KEY', 'hosted provider A key', null, true),
  v('PROVIDERB_API_KEY', 'hosted provider B key', null, true),
  route('LOCALLLM_HOST', 'local model daemon address'),
  route('LLM_API_BASE', 'generic OpenAI-compatible API base, used when the workflow sets none', null),
  v('LLM_API_KEY', 'key sent to the openai-compatible backend (LLM_API_BASE or llm.base_url), when it needs one', null, true),
  v('SVC_LLM_TIMEOUT_S', 'seconds one model call may take, retries included', '600'),
  v('SVC_LLM_MAX_RETRIES', 'retries of a model call answered 408, 429 or 5xx, or cut by a connection reset', '3'),
  v('SVC_BUDGET_USD', 'hard model budget of a run in USD: no new call once the cost ledger reaches it', null),
  v('SVC_MODEL_PRICES', 'price override file (model-substring: [input, output] USD per 1K tokens); else <checkpoint>/model_prices.yaml', null),
  v('SVC_LLM_RECORD', 'record every model exchange to <checkpoint>/llm_cassette.jsonl: on or off', 'on'),
  v('SVC_REPLAY_CASSETTE', 'cassette the replay backend answers from; else <checkpoint>/llm_cassette.jsonl', null),
  v('SVC_MAX_NODES', 'node cap'),
  v('SVC_MAX_DEPTH', 'depth cap'),
  v('SVC_PARALLEL', 'concurrent nodes'),
  v('SVC_MAX_REACT', 'ReAct steps per node'),
  v('SVC_TIMEOUT_NODE', 'seconds per node'),
  v('SVC_FRONTIER_SCORE', 'frontier score formula when the model selector fails: scientific_plus_diversity, scientific_only, depth_penalized or ucb_like'),
  v('SVC_COMPOSITE', 'evaluator composite: harmonic_mean, arithmetic_mean, weighted_min or geometric_mean', null),
  v('SVC_AXIS_MODE', 'evaluator axes: dynamic, legacy or custom', null),
  v('SVC_PROFILE', 'profile of a run started by the dashboard: laptop, hpc or cloud (svc run --profile wins)', null),
  v('SVC_MAX_RECURSION_DEPTH', 'how deep sub-experiments may nest', '3'),
  v('SVC_EXECUTOR', 'local, slurm, pbs or lsf'),
  v('SVC_SLURM_PARTITION', 'scheduler partition'),
  v('SVC_SLURM_CPUS', 'CPUs per job'),
  v('SVC_SLURM_GPUS', 'GPUs per node of a run on Slurm (--gres=gpu:N), passed through to its container; 0: none'),
  v('SVC_SLURM_WALLTIME', 'wall time per job (HH:MM:SS); derived from resources.timeout_minutes'),
  v('SLURM_LOG_DIR', 'where job logs go; the node work directory when unset', null),
  v('SLURM_DEFAULT_PARTITION', 'partition used when none is given', null),
  v('SVC_RETRIEVAL_BACKEND', 'scholar_a, scholar_b or both'),
  route('SVC_SCHOLAR_A_URL', 'Semantic Scholar Graph API base (scholar_a)', 'https://api.semanticscholar.org'),
  v('SVC_SCHOLAR_A_API_KEY', 'Semantic Scholar API key, sent as x-api-key', null, true),
  route('SVC_SCHOLAR_B_URL', 'arXiv export API base (scholar_b); else retrieval.endpoint, else https://export.arxiv.org', null),
  v('SVC_RETRIEVAL_TIMEOUT_S', 'seconds per literature backend, rate-limit waits included', '30'),
  v('BRAVE_API_KEY', 'Brave Search API key of the web skill\'s web_search (X-Subscription-Token)', null, true),
  route('SVC_WEB_SEARCH_URL', 'Brave Search API base of web_search', 'https://api.search.brave.com'),
  route('SVC_WEB_ALLOW_PRIVATE', 'on: fetch_url may reach loopback, link-local and private addresses (the dashboard, the memory server); else web.allow_private'),
  route('SVC_WEB_ALLOW_HOSTS', 'comma-separated hosts (name or address, :port for one port) fetch_url may reach although private; else web.allow_hosts'),
  v('VLM_MODEL', 'figure review model (a hosted vision model)'),
  v('SVC_ORCHESTRATOR_PORT', 'orchestrator HTTP port', '9890'),
  route('MEMBACKEND_BASE_URL', 'memory server'),
  v('MEMBACKEND_API_KEY', 'key sent to the memory server; svc memory serve requires it when set', null, true),
  v('MEMBACKEND_EMBEDDING_CONFIG', 'embedding handle'),
  v('SVC_MEMORY_BOOTSTRAP_LOCAL', 'auto, pip, docker, singularity or none', 'auto'),
  v('SVC_MEMORY_LETTA_TIMEOUT_S', 'memory call timeout, seconds', '10'),
  v('SVC_MEMORY_LETTA_OVERFETCH', 'memory search over-fetch size', '200'),
  v('SVC_MEMORY_LETTA_DISABLE_SELF_EDIT', 'turn memory self-edit off', 'true'),
  v('SVC_MEMORY_ACCESS_LOG', 'memory access log on or off', 'on'),
  v('SVC_MEMORY_ACCESS_LOG_MAX_MB', 'access log rotation size, MB', '100'),
  v('SVC_MEMORY_AUTO_RESTORE', 'restore memory from the backup on resume', 'true'),
  v('SVC_MEMORY_BACKUP_INTERVAL_S', 'opportunistic memory backup interval, seconds (0 off)', '0'),
  v('SVC_CURRENT_NODE_ID', 'set by the run for each node; memory writes must match it', null),
  v('SVC_RUBRIC', 'reviewer rubric id'),
  v('SVC_FEWSHOT_MODE', 'static or dynamic'),
  v('SVC_NUM_REVIEWS_ENSEMBLE', 'reviewers per paper'),
  v('SVC_NUM_REFLECTIONS', 'reviewer reflection rounds'),
  v('SVC_RUBRIC_GEN_TARGET_LEAVES', 'rubric leaves; 0 or unset: about 1 per 75 words, within [50, 400]'),
  v('SVC_RUBRIC_GEN_TEMPERATURE', 'rubric generator temperature'),
  v('SVC_RUBRIC_GEN_TWO_STAGE', '1/true/on or 0/false/off'),
  v('SVC_BENCH_RUBRIC_DIR', 'search root for venue rubric templates', null),
  v('SVC_BENCH_MAX_JOBS', 'benchmark jobs running at once over one paper registry (1 to 64); the rest wait as queued', '2'),
  v('SVC_PAPER_REGISTRY_DIR', 'paper registry of the reproducibility benchmark; else <workspace>/paper_registry', null),
  route('SVC_ARXIV_API_BASE', 'arXiv host the benchmark asks for preprint metadata (/api/query) and PDFs (/pdf/<id>)', 'http://export.arxiv.org'),
  v('SVC_PHASE1_SANDBOX', 'auto, slurm, docker, apptainer, singularity or local'),
  v('SVC_PHASE1_DOCKER_IMAGE', 'docker sandbox image', 'ubuntu:24.04'),
  v('SVC_PHASE1_APPTAINER_IMAGE', 'apptainer sandbox image', 'docker://ubuntu:24.04'),
  v('SVC_PHASE1_SINGULARITY_IMAGE', 'singularity sandbox image', 'docker://ubuntu:24.04'),
  v('SVC_PHASE1_ALLOW_FALLBACK', '1: a sandbox kind whose runtime is missing (docker daemon, apptainer/singularity, slurm) falls back to local with a warning instead of failing', null),
  v('SVC_SLURM_ALLOW_NO_GRES', '1: a GPU request on a cluster without generic resources is dropped with a warning instead of failing', null),
  v('SOURCE_DATE_EPOCH', 'seconds since 1970 used as created_at of manifest.lock and the license year, for bundles curated alike anywhere', null),
  v('SVC_FORCE_PAPER', 'run the post-search pipeline even when no node has real data (its sanity gate otherwise writes bfts_no_real_data.json and stops it)', 'off'),
  v('SVC_PUBLISH_DRYRUN', 'force publish dry-run', null),
  v('SVC_REGISTRY_DATA', 'registry storage root (must exist; never created); svc registry serve needs it unless --data-dir', null),
  v('SVC_REGISTRY_TOKEN', 'bearer token for registry clients', null, true),
  route('SVC_REGISTRY_URL', 'registry URL when no registries file names one', null),
  v('SVC_REGISTRY_MAX_UPLOAD_MB', 'largest bundle the registry accepts, MiB (413 above)', '4096'),
  route('SVC_OBJECT_STORE_BUCKET', 'object-store bucket for bundles', null),
  route('SVC_OBJECT_STORE_ENDPOINT', 'S3 endpoint; else AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, then https://s3.<region>.amazonaws.com', null),
  v('SVC_OBJECT_STORE_REGION', 'S3 region; else AWS_REGION, AWS_DEFAULT_REGION, then us-east-1', null),
  v('SVC_OBJECT_STORE_PREFIX', 'key prefix of bundles in the bucket', 'svc-bundles'),
  v('SVC_OBJECT_STORE_ACCESS_KEY_ID', 'S3 access key id; else AWS_ACCESS_KEY_ID', null),
  v('SVC_OBJECT_STORE_SECRET_ACCESS_KEY', 'S3 secret key; else AWS_SECRET_ACCESS_KEY', null, true),
  v('SVC_OBJECT_STORE_SESSION_TOKEN', 'S3 session token; else AWS_SESSION_TOKEN', null, true),
  v('SVC_CLONE_HTTP_TIMEOUT', 'seconds without data before a clone download fails', '60'),
  route('SVC_HOSTING_RELEASE_API', 'GitHub API base for hosting-release', 'https://api.github.com'),
  route('SVC_HOSTING_RELEASE_REPO', 'owner/name of the repository hosting-release publishes to', null),
  v('GITHUB_TOKEN', 'token of hosting-release (GH_TOKEN also read)', null, true),
  route('SVC_HOSTING_DOI_API', 'Zenodo base for hosting-doi', 'https://zenodo.org'),
  v('ZENODO_TOKEN', 'token of hosting-doi', null, true),
  route('SVC_REGISTRIES_FILE', 'client registry list file', null),
  v('SVC_REPRO_CLONE_POLICY', 'svc clone without --expect-sha256, and fetch_code_bundle of a reproduction: passthrough allows, warn warns, deny refuses', 'passthrough'),
  v('SVC_CHECKPOINT_DIR', 'checkpoint of the current run; its parent is the checkpoints directory'),
  v('SVC_GUI_PORT', 'dashboard port (wins over --port)'),
  v('SVC_GUI_TOKEN', 'when set, every dashboard request but the page itself needs Authorization: Bearer <token>', null, true),
  v('SVC_GUI_CORS_ORIGINS', 'web origins besides loopback ones that may call the dashboard (comma-separated, like --cors-origin)', null),
  v('SVC_GUI_ACCESS_LOG_MAX_MB', 'dashboard access log (viz_access.jsonl) rotation size, MB'),
  v('SVC_PAPER_LANGUAGE', 'paper language'),
  v('SVC_WORKSPACE', 'orchestrator workspace', '~/SVC'),
  v('SVC_WORK_DIR', 'coding work directory'),
  v('SVC_CONTAINER_IMAGE', 'container image for node commands'),
  v('SVC_AGENT_ENV_PATH', "env file (KEY=VALUE lines) whose variables the benchmark's replicator agent's commands get; when unset ~/.svc/agent.env if it exists; a named file must exist", null),
  v('SVC_BLACKLIST_URLS', "set by the benchmark for its replicator agent's commands: the URLs it must not fetch from, one a line", null),
  v('HF_TOKEN', "Hugging Face token, forwarded to the benchmark's replicator agent's commands", null, true),
  v('SVC_CLAIM_GATE_MODE', 'claim gate mode: off, warn or strict'),
  v('SVC_COMPARISON_SCOPE', 'claim gate comparison scope: any or same_environment'),
  v('SVC_IDEA_MA_REAL', 'switch on the real multi-agent idea engine', null),
  v('SVC_IDEA_MA_LIVE', 'multi-agent idea engine: 1 for a live literature snapshot, 0 for the cached one (svc run --ma-live/--no-ma-live)', null),
  v('SVC_IDEA_MA_K', 'discussion rounds', '7'),
  v('SVC_IDEA_MA_TEAM_SIZE', 'team size', '3'),
  v('SVC_IDEA_MA_N_AUTHORS', 'author pool', '16'),
  v('SVC_IDEA_MA_N_PAPERS', 'corpus size', '800'),
  v('SVC_IDEA_MA_MAX_TEAMS', 'team cap; the number of ideas when unset', null),
  v('SVC_IDEA_MA_EMBED_MODEL', 'embedding model of the literature snapshot, [backend/]model; none turns the engine off', 'allenai/specter2_base'),
];

const BY_NAME = new Map(ENV_VARS.map((e) => [e.name, e]));

export function envVar(name: string): EnvVar | undefined {
  return BY_NAME.get(name);
}

export type Env = Readonly<Record<string, string | undefined>>;

/** The value of a variable, or its default; an empty value counts as unset. */
export function envValue(env: Env, name: string): string | null {
  const raw = env[name];
  if (raw !== undefined && raw !== '') return raw;
  return BY_NAME.get(name)?.default ?? null;
}

/** A switch variable (1/true/on/yes or 0/false/off/no), its default when unset; anything else is refused. */
export function envOnOff(env: Env, name: string): boolean {
  const raw = (envValue(env, name) ?? '').trim().toLowerCase();
  const on = onOff(raw);
  if (on === undefined) throw new InputError(`${name} must be on or off, got '${raw}'`);
  return on;
}
