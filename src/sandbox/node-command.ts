import { isMapping } from '../core/values.ts';
import { containerCommand, podmanUlimits } from './container.ts';
import { RUNTIMES, type Runtime } from './detect.ts';
import { shellQuote } from './job-state.ts';
import type { NodeSandbox } from './node-sandbox.ts';

/** How a node's commands run, as the run decided before its first node (checkNodeSandbox). */
export type NodeExec = {
  container?: {
    runtime: Runtime;
    binary: string;
    image: string;
    /** at each command: pull the image first (container.pull always), or use the copy made ready at the start */
    pull: 'always' | 'never';
    /** the image's id where the runtime tells it */
    digest?: string;
    /** the node asked for GPUs: the container is given them */
    gpu?: boolean;
    /** the workflow lets the commands use the network (container.network) */
    network?: boolean;
    /** variables of the command's environment the container gets by name (docker, podman) */
    passEnv?: string[];
  };
  /** the node's Slurm allocation: each command is a step in it, on `nodes` */
  slurm?: { jobId: string; nodes?: string };
  /** a PBS or LSF cluster: each command is a job of its own, asking for `cpus` */
  batch?: { kind: BatchKind; cpus?: number };
};

export type BatchKind = 'pbs' | 'lsf';
const BATCH_KINDS: readonly unknown[] = ['pbs', 'lsf'] satisfies BatchKind[];

/** What the run's decision means for each command of its nodes. */
export function nodeExecOf(sandbox: NodeSandbox): NodeExec {
  const c = sandbox.container;
  const { executor: kind, cpus } = sandbox;
  const batch = kind === 'pbs' || kind === 'lsf' ? { batch: { kind, ...(cpus ? { cpus } : {}) } } : {};
  if (!c) return batch;
  const pull = c.pull === 'always' ? 'always' : 'never';
  const gpu = (sandbox.gpus ?? 0) > 0;
  return { ...batch, container: { runtime: c.runtime.runtime, binary: c.runtime.path, image: c.image, pull, ...(c.digest ? { digest: c.digest } : {}), ...(gpu ? { gpu } : {}), ...(c.network ? { network: true } : {}) } };
}

/**
 * The argv a node's command runs as: `argv` itself, or inside the node's container, its work
 * directory mounted at the same path, no network unless the workflow allows it, its GPUs when it
 * asked for some (containerCommand). Inside, programs are the image's: `argv[0]` is a name looked
 * up there, not a path of this machine.
 */
export function nodeCommand(argv: string[], workDir: string, exec: NodeExec | undefined, name?: string): string[] {
  const c = exec?.container;
  const command = argv.map(shellQuote).join(' ');
  const ulimits = c?.runtime === 'podman' ? podmanUlimits() : undefined;
  const inner = c ? containerCommand({ runtime: c.runtime, binary: c.binary, image: c.image, workDir, command, pull: c.pull, gpu: c.gpu, network: c.network, ulimits, name, ...(c.passEnv?.length ? { passEnv: c.passEnv } : {}) }) : argv;
  return onItsNode(inner, workDir, exec);
}

/** A step of the node's allocation on Slurm: the command runs on its compute node, stopped with srun. */
function onItsNode(argv: string[], workDir: string | null, exec: NodeExec | undefined): string[] {
  return exec?.slurm ? ['srun', `--jobid=${exec.slurm.jobId}`, '--overlap', '--quiet', ...(workDir ? [`--chdir=${workDir}`] : []), '--', ...argv] : argv;
}

/**
 * A docker or podman container lives in its daemon, not in its client: a client killed outright (a
 * Slurm step is ended with SIGKILL) leaves it running. So each command's container has a name, under
 * the node's allocation where it has one, by which it is removed; null where there is no daemon.
 */
export function containerName(exec: NodeExec | undefined): string | null {
  return withDaemon(exec) ? `${containerPrefix(exec)}${crypto.randomUUID().slice(0, 8)}` : null;
}

const withDaemon = (exec: NodeExec | undefined) => (exec?.container?.runtime === 'docker' || exec?.container?.runtime === 'podman' ? exec.container : null);
const containerPrefix = (exec: NodeExec | undefined) => `svc-${exec?.slurm?.jobId ?? 'local'}-`;

/** Removes the named container of a stopped command, where it runs. */
export function removeContainerCommand(exec: NodeExec | undefined, workDir: string, name: string): string[] | null {
  const c = withDaemon(exec);
  return c ? onItsNode([c.binary, 'rm', '-f', name], workDir, exec) : null;
}

/** Removes every container of the node's allocation, before it is cancelled: a stopped command's own removal may not have run yet. */
export function sweepContainersCommand(exec: NodeExec | undefined): string[] | null {
  const c = withDaemon(exec);
  if (!exec?.slurm || !c) return null;
  const bin = shellQuote(c.binary);
  return onItsNode(['sh', '-c', `${bin} ps -aq --filter name=^${containerPrefix(exec)} | xargs -r ${bin} rm -f`], null, exec);
}

/** The name of the jobs a node's commands run as on PBS or LSF: its report lists them by it. */
export const nodeJobName = (nodeId: string | undefined) => `svc-${nodeId || 'command'}`;

/** Whether a command's programs are those of another machine or image, named rather than looked up here. */
export const runsElsewhere = (exec: NodeExec | undefined) => exec?.container !== undefined || exec?.slurm !== undefined || exec?.batch !== undefined;

/** A NodeExec as it arrives with a tool call; anything malformed is none, and the command runs as it is. */
export function parseNodeExec(v: unknown): NodeExec | undefined {
  if (!isMapping(v)) return undefined;
  const s = v.slurm;
  const slurm = isMapping(s) && typeof s.jobId === 'string' && /^\d+$/.test(s.jobId) ? { slurm: { jobId: s.jobId, ...(typeof s.nodes === 'string' ? { nodes: s.nodes } : {}) } } : {};
  if (s !== undefined && !('slurm' in slurm)) return undefined;
  const b = v.batch;
  const batch = isMapping(b) && BATCH_KINDS.includes(b.kind) && (b.cpus === undefined || (Number.isInteger(b.cpus) && (b.cpus as number) > 0)) ? { batch: { kind: b.kind as BatchKind, ...(b.cpus ? { cpus: b.cpus as number } : {}) } } : {};
  if (b !== undefined && !('batch' in batch)) return undefined;
  const c = v.container;
  if (c === undefined) return { ...slurm, ...batch };
  if (!isMapping(c) || !(RUNTIMES as readonly unknown[]).includes(c.runtime) || typeof c.binary !== 'string' || typeof c.image !== 'string' || (c.pull !== 'always' && c.pull !== 'never')) return undefined;
  const flags = { ...(c.gpu === true ? { gpu: true } : {}), ...(c.network === true ? { network: true } : {}) };
  return { ...slurm, ...batch, container: { runtime: c.runtime as Runtime, binary: c.binary, image: c.image, pull: c.pull, ...(typeof c.digest === 'string' ? { digest: c.digest } : {}), ...flags } };
}
