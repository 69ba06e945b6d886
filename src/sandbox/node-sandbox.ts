import { type Config, effective } from '../core/config/config.ts';
import type { Env } from '../core/config/env-vars.ts';
import { UnavailableError } from '../core/errors.ts';
import { log } from '../core/log.ts';
import { type ChosenRuntime, chooseRuntime, type PullPolicy, pullCommand } from './container.ts';
import { containerSettings } from './container-info.ts';
import { findBinary, PROBE_TIMEOUT_MS } from './detect.ts';
import { runnableImage } from './image.ts';
import { lastLine, runCommand } from '../core/run-command.ts';
import { askedCpus, checkNodeResources } from './node-resources.ts';
import { resolvePartition } from './partition.ts';
import { checkSandbox, FALLBACK_OVERRIDE } from './preconditions.ts';

export type NodeExecutor = 'local' | 'slurm' | 'pbs' | 'lsf';

/** Where a search's nodes run their commands, as decided before the first node starts. */
export type NodeSandbox = {
  executor: NodeExecutor;
  /** the scheduler partition (slurm), null elsewhere */
  partition: string | null;
  /** CPUs each node (slurm) or each command (pbs, lsf) asks of the scheduler, null locally */
  cpus: number | null;
  /** memory each node asks of the scheduler, GB (slurm), null elsewhere or unset */
  memGb: number | null;
  /** GPUs each node asks of the scheduler and its container is given (slurm), null elsewhere */
  gpus: number | null;
  container: { runtime: ChosenRuntime; image: string; pull: PullPolicy; network: boolean; /** the image's id (docker, podman) when it is present here */ digest?: string } | null;
  /** what was given up for SVC_PHASE1_ALLOW_FALLBACK=1 or SVC_SLURM_ALLOW_NO_GRES=1, one line each */
  warnings: string[];
};

/** The submit command of each batch scheduler. */
const SUBMIT: Record<Exclude<NodeExecutor, 'local' | 'slurm'>, string> = { pbs: 'qsub', lsf: 'bsub' };

/**
 * The executor and container of a run's nodes, every precondition of the fail-loud table checked
 * once, before any node starts: the scheduler's submit command and a partition that exists (the
 * real ones listed), what each node asks of it (checkNodeResources), the docker daemon, the
 * apptainer or singularity binary. Each refusal is one line with its fix; SVC_PHASE1_ALLOW_FALLBACK=1
 * runs locally (or without the container) instead, saying so.
 */
export async function checkNodeSandbox(cfg: Config, env: Env): Promise<NodeSandbox> {
  const warnings: string[] = [];
  const executor = await checkExecutor(String(effective(cfg, 'executor').value) as NodeExecutor, env, warnings);
  const partition = executor === 'slurm' ? (await resolvePartition({ env, cfg })).name : null;
  // PBS and LSF ask for the node's CPUs with each job, unchecked: their nodes are not listed as Slurm's are
  const resources = executor === 'slurm' ? await checkNodeResources(cfg, partition, env, warnings) : { cpus: executor === 'local' ? null : askedCpus(cfg), memGb: null, gpus: null };
  return { executor, partition, ...resources, container: await checkContainer(cfg, env, warnings), warnings };
}

async function checkExecutor(executor: NodeExecutor, env: Env, warnings: string[]): Promise<NodeExecutor> {
  if (executor === 'local') return executor;
  if (executor === 'slurm') {
    const decision = await checkSandbox('slurm', env);
    if (decision.warning) warnings.push(decision.warning);
    return decision.kind === 'slurm' ? 'slurm' : 'local';
  }
  const submit = SUBMIT[executor];
  if (findBinary(submit, env) !== null) return executor;
  return fallBack(`executor ${executor}: ${submit} is not installed`, 'local', env, warnings);
}

async function checkContainer(cfg: Config, env: Env, warnings: string[]): Promise<NodeSandbox['container']> {
  const { mode, pull, image, network } = containerSettings(cfg);
  if (image === null || mode === 'none') return null;
  let runtime: ChosenRuntime | null;
  try {
    runtime = await chooseRuntime(mode, env);
  } catch (err) {
    return fallBack(`container: ${(err as Error).message}`, null, env, warnings);
  }
  if (runtime === null) return fallBack(`container image ${image}: no container runtime here (docker with its daemon, podman, apptainer or singularity)`, null, env, warnings);
  const digest = await readyImage(runtime, image, pull, env, warnings);
  return { runtime, image, pull, network, ...(digest ? { digest } : {}) };
}

/** Longest wait for a pull at the start of a run: images of several GB over a slow link. */
const PULL_TIMEOUT_MS = 30 * 60 * 1000;

/**
 * The image made ready by the pull policy, and its id. docker and podman: `on_start` and `always`
 * pull it now (a failed pull of an image that is here already goes on with it, saying so);
 * `never` needs it here. apptainer and singularity read the image at each command.
 */
async function readyImage(runtime: ChosenRuntime, image: string, pull: PullPolicy, env: Env, warnings: string[]): Promise<string | null> {
  if (runtime.runtime !== 'docker' && runtime.runtime !== 'podman') return null;
  if (pull !== 'never') {
    log.info(`pulling ${image} (container.pull ${pull})`);
    const r = await runCommand(pullCommand(runtime.runtime, image, '', runtime.path), env, PULL_TIMEOUT_MS);
    if (r.code !== 0) {
      const why = lastLine(r.stderr) ?? (r.timedOut ? 'no answer' : `exit ${r.code}`);
      const here = await imageId(runtime, image, env);
      if (here === null) throw new UnavailableError(`container image ${image} cannot be pulled (${why}) and is not on this machine`, 'check the image name and the network, or pull it yourself');
      const warning = `container image ${image} was not pulled (${why}); the copy on this machine is used`;
      log.warn(warning);
      warnings.push(warning);
      return here;
    }
  }
  const id = await imageId(runtime, image, env);
  if (id === null) throw new UnavailableError(`container image ${image} is not on this machine and container.pull is never`, `pull it (${runtime.runtime} pull ${image}) or set container.pull to on_start`);
  return id;
}

/** `<runtime> image inspect` of the image: its id, for the node reports; null when absent or unknown (apptainer, singularity). */
export async function imageId(runtime: ChosenRuntime, image: string, env: Env): Promise<string | null> {
  if (runtime.runtime !== 'docker' && runtime.runtime !== 'podman') return null;
  const r = await runCommand([runtime.path, 'image', 'inspect', '--format', '{{.Id}}', runnableImage(image)], env, PROBE_TIMEOUT_MS);
  return r.code === 0 && r.stdout.trim() !== '' ? r.stdout.trim() : null;
}

/** The fail-loud refusal, or with the override the fallback and its warning. */
function fallBack<T>(problem: string, instead: T, env: Env, warnings: string[]): T {
  if (env[FALLBACK_OVERRIDE] !== '1') throw new UnavailableError(problem, `set ${FALLBACK_OVERRIDE}=1 to run ${instead === null ? 'without the container' : 'locally'} instead`);
  const warning = `${problem}; running ${instead === null ? 'without the container' : 'locally'} because ${FALLBACK_OVERRIDE}=1`;
  log.warn(warning);
  warnings.push(warning);
  return instead;
}
