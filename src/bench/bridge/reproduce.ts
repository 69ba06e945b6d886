/**
 * Stage 2 of the bridge: the submission's reproduce.sh run in a sandbox (run_reproduce's domain
 * function: the submission root, the sandbox choice and its fail-loud preconditions, timeouts),
 * with Slurm's resource flags, a tarball of each attempt (rule 8), and early failures retried
 * within one wall-clock budget (rule 7).
 */
import { dirname } from 'node:path';
import { loadConfig } from '../../core/config/config.ts';
import type { Env } from '../../core/config/env-vars.ts';
import { InputError } from '../../core/errors.ts';
import { type ReproduceRecord, runReproduce } from '../../reproduce/run-reproduce.ts';
import { PREFERENCE, type RequestedSandbox } from '../../reproduce/sandbox-choice.ts';
import type { SlurmFlags } from '../../reproduce/slurm-job.ts';
import { namedPartition, resolvePartition } from '../../sandbox/partition.ts';
import { checkGpuRequest } from '../../sandbox/preconditions.ts';
import { systemRunner } from '../../sandbox/slurm-runner.ts';
import { DEFAULT_TIME_LIMIT_SEC } from '../defaults.ts';
import { agentEnvironment } from './agent-env.ts';
import { HOST_FILESYSTEM_REFUSAL } from './host-filesystem.ts';
import { captureSubmission } from './tarball.ts';

/**
 * A failure this soon after the start is taken for one of setup (a missing module, a download
 * that broke, a busy node), worth another try; a run that failed later failed at its work.
 */
export const DEFAULT_RETRY_THRESHOLD_SEC = 60;
/** The scheduler's margin over the time left: the job is cancelled by our timeout, not killed by Slurm first. */
const SLURM_MARGIN_SEC = 60;

export type ReproduceParams = {
  /** the repository holding reproduce.sh (or submission/reproduce.sh) */
  submission_dir: string;
  /** where ors_phase1.json and the run's own files go; default the parent of submission_dir */
  checkpoint_dir?: string;
  sandbox_kind?: string;
  container_image?: string;
  partition?: string;
  nodes?: number;
  ntasks?: number;
  ntasks_per_node?: number;
  gpus_per_task?: number;
  gpu_type?: string;
  memory_gb_per_node?: number;
  exclusive?: boolean;
  constraint?: string;
  cpu_bind?: string;
  extra_sbatch_args?: string[];
  capture_tarball?: boolean;
  /** where the tarballs go; default beside the submission (the parent of submission_dir) */
  tarball_dir?: string;
  salvage_retries?: number;
  retry_threshold_sec?: number;
  /** the whole budget, every attempt together; default 43200 */
  time_limit_sec?: number;
  forbid_host_filesystem?: boolean;
  /** the agent's env file, whose variables reproduce.sh gets with HF_TOKEN (bridge rule 4); default SVC_AGENT_ENV_PATH, else ~/.svc/agent.env */
  agent_env_path?: string;
  /** the rubric the run is graded with (recorded) */
  rubric_path?: string;
  env: Env;
  signal?: AbortSignal;
};

export type ReproduceAttempt = ReproduceRecord & { tarball?: string };
/** The last attempt's record, and every attempt's. */
export type ReproduceOutcome = ReproduceAttempt & { attempts: ReproduceAttempt[]; total_wall_time_sec: number; time_limit_sec: number };

export async function reproduceSubmission(p: ReproduceParams): Promise<ReproduceOutcome> {
  const requested = requestedSandbox(p.sandbox_kind);
  const limit = p.time_limit_sec ?? DEFAULT_TIME_LIMIT_SEC;
  if (!(limit > 0)) throw new InputError(`time_limit_sec ${limit} is not a positive number of seconds`, `give seconds, such as ${DEFAULT_TIME_LIMIT_SEC}`);
  const retries = p.salvage_retries ?? 0;
  if (!Number.isInteger(retries) || retries < 0) throw new InputError(`salvage_retries ${retries} is not a count`, 'give 0 (no retry) or more');
  const threshold = p.retry_threshold_sec ?? DEFAULT_RETRY_THRESHOLD_SEC;
  const cfg = loadConfig({ env: p.env });
  const explicit = p.partition?.trim() || undefined;
  const checkpointDir = p.checkpoint_dir ?? dirname(p.submission_dir);
  // the agent wrote reproduce.sh: it gets what the agent was given, and no other credential
  const granted = agentEnvironment(p.agent_env_path, p.env).vars;
  const deadline = performance.now() + limit * 1000;
  const left = () => (deadline - performance.now()) / 1000;
  const attempts: ReproduceAttempt[] = [];
  for (;;) {
    const budget = left();
    const record = await runReproduce({
      checkpointDir,
      repoDir: p.submission_dir,
      rubricPath: p.rubric_path ?? null,
      sandbox: requested,
      image: p.container_image?.trim() || null,
      timeoutSec: budget,
      partitionNamed: namedPartition({ explicit, env: p.env, cfg }) !== null,
      slurm: () => slurmFlags(p, explicit, cfg, budget),
      env: p.env,
      grantedEnv: granted,
      ...(p.signal ? { signal: p.signal } : {}),
      ...(p.forbid_host_filesystem ? { refused: HOST_FILESYSTEM_REFUSAL } : {}),
    });
    const tarball = p.capture_tarball ? await captureSubmission(record.submission_dir, p.tarball_dir ?? dirname(p.submission_dir), new Date(record.ended_at)) : undefined;
    attempts.push(tarball ? { ...record, tarball } : record);
    const early = record.exit_code !== 0 && !record.timed_out && record.wall_time_sec < threshold;
    if (!early || attempts.length > retries || left() <= 0) break;
  }
  const last = attempts.at(-1) as ReproduceAttempt;
  const total = attempts.reduce((s, a) => s + a.wall_time_sec, 0);
  return { ...last, attempts, total_wall_time_sec: Math.round(total * 1000) / 1000, time_limit_sec: limit };
}

function requestedSandbox(kind: string | undefined): RequestedSandbox {
  const k = kind?.trim() || 'auto';
  if (k !== 'auto' && !(PREFERENCE as readonly string[]).includes(k)) throw new InputError(`sandbox_kind ${k} is not a sandbox`, `use one of auto, ${PREFERENCE.join(', ')}`);
  return k as RequestedSandbox;
}

async function slurmFlags(p: ReproduceParams, explicit: string | undefined, cfg: ReturnType<typeof loadConfig>, budgetSec: number): Promise<SlurmFlags> {
  const part = await resolvePartition({ ...(explicit ? { explicit } : {}), env: p.env, cfg, runner: systemRunner(p.env) });
  const gpu = await checkGpuRequest(p.gpus_per_task ?? 0, p.env, part.name);
  return {
    partition: part.name,
    wallTimeS: Math.ceil(budgetSec) + SLURM_MARGIN_SEC,
    ...(p.memory_gb_per_node ? { memGb: p.memory_gb_per_node } : {}),
    ...(gpu.gpus ? { gpus: gpu.gpus } : {}),
    ...(p.gpu_type ? { gpuType: p.gpu_type } : {}),
    ...(p.exclusive ? { exclusive: true } : {}),
    ...(p.nodes ? { nodes: p.nodes } : {}),
    ...(p.ntasks ? { ntasks: p.ntasks } : {}),
    ...(p.ntasks_per_node ? { ntasksPerNode: p.ntasks_per_node } : {}),
    ...(p.constraint?.trim() ? { constraint: p.constraint.trim() } : {}),
    ...(p.cpu_bind?.trim() ? { cpuBind: p.cpu_bind.trim() } : {}),
    extra: p.extra_sbatch_args ?? [],
  };
}
