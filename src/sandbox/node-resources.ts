import { type Config, effective } from '../core/config/config.ts';
import type { Env } from '../core/config/env-vars.ts';
import { UnavailableError } from '../core/errors.ts';
import { runCommand } from '../core/run-command.ts';
import { findBinary, PROBE_TIMEOUT_MS } from './detect.ts';
import { checkGpuRequest } from './preconditions.ts';
import { wallMinutes } from './slurm-script.ts';
import { slurmSeconds } from './slurm-state.ts';

/** A minute beyond the node's own limit: the run ends a node itself, and cancels its allocation. */
export const ALLOCATION_SLACK_S = 60;

/** What each node's allocation asks of Slurm; null: the cluster's default. */
export type NodeResources = { cpus: number | null; memGb: number | null; gpus: number };

/** The most any node of the partition has, and its time limit as sinfo gives it and in seconds (null: none). */
type PartitionNodes = { cpus: number; memMb: number; timelimit: string; timelimitS: number | null };

/**
 * What each node asks of Slurm, checked against the partition before the first node starts: more
 * CPUs, memory or time than its nodes give would never start (or be refused at submit), so the run
 * stops in one line saying what fits. GPUs need a `gpu` generic resource there; without one the
 * run stops too, unless SVC_SLURM_ALLOW_NO_GRES=1 drops them with a warning. Without an answer
 * from sinfo the rest is left to sbatch.
 */
export async function checkNodeResources(cfg: Config, partition: string | null, env: Env, warnings: string[]): Promise<NodeResources> {
  const cpus = askedCpus(cfg);
  const memGb = positive(effective(cfg, 'mem_gb').value, false);
  const nodes = partition === null ? null : await partitionNodes(partition, env);
  if (nodes !== null && partition !== null) {
    const wallS = Number(effective(cfg, 'timeout_node').value) + ALLOCATION_SLACK_S;
    checkCpus(cpus, nodes, partition);
    checkMemory(memGb, nodes, partition);
    checkWallTime(wallS, nodes, partition);
  }
  const gpu = await checkGpuRequest(positive(effective(cfg, 'gpus').value, true) ?? 0, env, partition);
  if (gpu.warning) warnings.push(gpu.warning);
  return { cpus, memGb, gpus: gpu.gpus };
}

/** The CPUs each node asks for (SVC_SLURM_CPUS, resources.cpus); null: the scheduler's default. */
export function askedCpus(cfg: Config): number | null {
  return positive(effective(cfg, 'cpus').value, true);
}

/** A setting's number when it asks for something: above 0 (and whole where it must be); else null. */
function positive(value: unknown, whole: boolean): number | null {
  const n = Number(value);
  return value !== null && n > 0 && (!whole || Number.isInteger(n)) ? n : null;
}

/** `sinfo -N`: a row per node, so a partition of unlike nodes gives each its own numbers. */
async function partitionNodes(partition: string, env: Env): Promise<PartitionNodes | null> {
  const sinfo = findBinary('sinfo', env);
  if (sinfo === null) return null;
  const r = await runCommand([sinfo, '-h', '-N', '-p', partition, '-o', '%c|%m|%l'], env, PROBE_TIMEOUT_MS);
  const rows = r.code === 0 ? r.stdout.split('\n').filter((l) => l.trim() !== '').map((l) => l.trim().split('|')) : [];
  if (rows.length === 0) return null;
  const most = (i: number) => Math.max(0, ...rows.map((row) => Number.parseInt(row[i] ?? '', 10)).filter(Number.isFinite));
  const timelimit = rows[0]?.[2] ?? '';
  const limitS = slurmSeconds(timelimit);
  // infinite, or a limit sinfo could not say: none to check against
  return { cpus: most(0), memMb: most(1), timelimit, timelimitS: limitS === null || limitS === Number.POSITIVE_INFINITY ? null : limitS };
}

function checkCpus(cpus: number | null, nodes: PartitionNodes, partition: string): void {
  if (cpus === null || nodes.cpus === 0 || cpus <= nodes.cpus) return;
  throw new UnavailableError(`each node asks for ${cpus} CPUs, but the nodes of partition ${partition} have at most ${nodes.cpus}`, `set SVC_SLURM_CPUS (or resources.cpus) to at most ${nodes.cpus}`);
}

function checkMemory(memGb: number | null, nodes: PartitionNodes, partition: string): void {
  if (memGb === null || nodes.memMb === 0 || Math.ceil(memGb * 1024) <= nodes.memMb) return;
  const fits = Math.floor((nodes.memMb / 1024) * 10) / 10;
  throw new UnavailableError(`each node asks for ${memGb} GB of memory, but the nodes of partition ${partition} have at most ${nodes.memMb} MB`, `set slurm_memory_gb (svc settings --mem) to at most ${fits}`);
}

function checkWallTime(wallS: number, nodes: PartitionNodes, partition: string): void {
  const limit = nodes.timelimitS;
  // sbatch asks for whole minutes
  if (limit === null || wallMinutes(wallS) * 60 <= limit) return;
  const most = Math.floor(limit / 60) * 60 - ALLOCATION_SLACK_S;
  const lower = most > 0 ? `lower SVC_TIMEOUT_NODE (or bfts.timeout_node) to at most ${most} s, or ` : '';
  throw new UnavailableError(
    `each node holds its allocation for ${wallS} s (SVC_TIMEOUT_NODE ${wallS - ALLOCATION_SLACK_S} s and ${ALLOCATION_SLACK_S} s to end it), but partition ${partition} allows at most ${nodes.timelimit} (${limit} s)`,
    `${lower}choose a partition with a longer time limit (SVC_SLURM_PARTITION)`,
  );
}
