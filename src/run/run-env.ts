import type { Env } from '../core/config/env-vars.ts';
import type { LaunchConfig } from '../schema/checkpoint.ts';
import { VIR_SCI_FIELDS } from '../schema/ma-limits.ts';
import { publicUrl } from './launch-config.ts';
import type { LaunchRequest } from './launch-request.ts';

/**
 * The variables through which a launcher hands its choices to `svc run` / `svc resume`: choices
 * travel in the child's environment, never on its command line (where `ps` shows them to everyone).
 */
export function requestEnv(req: Omit<LaunchRequest, 'experiment_md' | 'staging'>): Record<string, string> {
  const env: Record<string, string> = {};
  if (req.model !== undefined) env.SVC_MODEL = req.model;
  if (req.provider !== undefined) env.SVC_BACKEND = req.provider;
  if (req.max_nodes !== undefined) env.SVC_MAX_NODES = String(req.max_nodes);
  if (req.max_depth !== undefined) env.SVC_MAX_DEPTH = String(req.max_depth);
  if (req.workers !== undefined) env.SVC_PARALLEL = String(req.workers);
  if (req.profile !== undefined) env.SVC_PROFILE = req.profile;
  if (req.executor !== undefined) env.SVC_EXECUTOR = req.executor;
  if (req.partition !== undefined) env.SVC_SLURM_PARTITION = req.partition;
  if (req.container_image !== undefined) env.SVC_CONTAINER_IMAGE = req.container_image;
  for (const [field, name] of VIR_SCI_FIELDS) {
    const v = req[field];
    if (v !== undefined) env[name] = typeof v === 'boolean' ? (v ? '1' : '0') : String(v);
  }
  return env;
}

/** launch_config.json key → the variable that carries it to a resumed run. */
const FROM_LAUNCH_CONFIG: (readonly [keyof LaunchConfig | string, string])[] = [
  ['llm_model', 'SVC_MODEL'],
  ['llm_provider', 'SVC_BACKEND'],
  ['llm_base_url', 'LLM_API_BASE'],
  ['max_nodes', 'SVC_MAX_NODES'],
  ['max_depth', 'SVC_MAX_DEPTH'],
  ['parallel', 'SVC_PARALLEL'],
  ['max_react', 'SVC_MAX_REACT'],
  ['timeout_node_s', 'SVC_TIMEOUT_NODE'],
  ['profile', 'SVC_PROFILE'],
  ['executor', 'SVC_EXECUTOR'],
  ['partition', 'SVC_SLURM_PARTITION'],
  ['hpc_cpus', 'SVC_SLURM_CPUS'],
  ['hpc_gpus', 'SVC_SLURM_GPUS'],
  ['retrieval_backend', 'SVC_RETRIEVAL_BACKEND'],
  ...VIR_SCI_FIELDS,
];

/**
 * The environment that gives a resumed run the choices its launch recorded; unset and empty values
 * are left out. The record's base URL is shorn of credentials: when the launcher's own LLM_API_BASE
 * is that URL with them, the launcher's stands.
 */
export function launchConfigEnv(cfg: LaunchConfig, launcherEnv: Env = {}): Record<string, string> {
  const env: Record<string, string> = {};
  const record = cfg as Record<string, unknown>;
  for (const [key, name] of FROM_LAUNCH_CONFIG) {
    const v = record[key];
    if ((typeof v === 'string' && v !== '') || (typeof v === 'number' && Number.isFinite(v))) env[name] = String(v);
    else if (typeof v === 'boolean') env[name] = v ? '1' : '0';
  }
  const own = launcherEnv.LLM_API_BASE;
  if (own && env.LLM_API_BASE === publicUrl(own)) env.LLM_API_BASE = own;
  return env;
}
