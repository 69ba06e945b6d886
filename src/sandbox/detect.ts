import type { Env } from '../core/config/env-vars.ts';
import { UnavailableError } from '../core/errors.ts';
import { lastLine, runCommand } from '../core/run-command.ts';

/** Container runtimes svc can run node commands in, in the order `container.mode: auto` prefers them. */
export const RUNTIMES = ['docker', 'podman', 'apptainer', 'singularity'] as const;
export type Runtime = (typeof RUNTIMES)[number];

/** How long a probe (`docker info`, `sinfo`, `--version`) may take before it counts as no answer. */
export const PROBE_TIMEOUT_MS = 5000;

/** The program `name` as found on the PATH of `env`, or null. */
export function findBinary(name: string, env: Env): string | null {
  return Bun.which(name, { PATH: env.PATH ?? '' });
}

export type DaemonProbe = { reachable: boolean; version?: string; error?: string };

/** Whether the docker daemon answers `docker info` within the probe timeout; the reason when not. */
export async function dockerDaemon(env: Env): Promise<DaemonProbe> {
  const docker = findBinary('docker', env);
  if (docker === null) return { reachable: false, error: 'docker is not installed' };
  const r = await runCommand([docker, 'info', '--format', '{{.ServerVersion}}'], env, PROBE_TIMEOUT_MS);
  if (r.timedOut) return { reachable: false, error: `docker info gave no answer in ${PROBE_TIMEOUT_MS / 1000} s` };
  const version = r.stdout.trim();
  // a client without a daemon prints an empty version or exits non-zero, depending on its release
  if (r.code !== 0 || version === '') return { reachable: false, error: lastLine(r.stderr) ?? `docker info exited with ${r.code}` };
  return { reachable: true, version };
}

export type RuntimeProbe = {
  runtime: Runtime;
  found: boolean;
  path?: string;
  version?: string;
  /** docker only: whether its daemon answers */
  daemon?: boolean;
  error?: string;
};

/** What this machine has of one runtime: the binary, its version, and for docker the daemon. */
export async function probeRuntime(runtime: Runtime, env: Env): Promise<RuntimeProbe> {
  const path = findBinary(runtime, env);
  if (path === null) return { runtime, found: false };
  if (runtime === 'docker') {
    const d = await dockerDaemon(env);
    return { runtime, found: true, path, daemon: d.reachable, ...(d.version ? { version: d.version } : {}), ...(d.error ? { error: d.error } : {}) };
  }
  const r = await runCommand([path, '--version'], env, PROBE_TIMEOUT_MS);
  const version = r.code === 0 ? lastLine(r.stdout) : null;
  return version ? { runtime, found: true, path, version } : { runtime, found: true, path, error: lastLine(r.stderr) ?? 'no version reported' };
}

/** A runtime is usable when its binary is there and, for docker, the daemon answers. */
export function usable(p: RuntimeProbe): boolean {
  return p.found && (p.runtime !== 'docker' || p.daemon === true);
}

export type SlurmPartition = { name: string; default: boolean; available: string; timelimit: string; nodes: number; gres: string[] };

/** `sinfo -h -o '%P|%a|%l|%D|%G'`: one row per partition and resource group, the default marked with `*`. */
export const SINFO_ARGS = ['-h', '-o', '%P|%a|%l|%D|%G'];

/** Partitions from sinfo output in SINFO_ARGS format; rows of one partition are merged. */
export function parseSinfo(text: string): SlurmPartition[] {
  const byName = new Map<string, SlurmPartition>();
  for (const line of text.split('\n')) {
    const [rawName, available = '', timelimit = '', nodes = '0', gres = ''] = line.trim().split('|');
    if (!rawName) continue;
    const name = rawName.replace(/\*$/, '');
    const p = byName.get(name) ?? { name, default: false, available, timelimit, nodes: 0, gres: [] };
    p.default ||= rawName.endsWith('*');
    p.nodes += Number.parseInt(nodes, 10) || 0;
    for (const g of gresList(gres)) if (!p.gres.includes(g)) p.gres.push(g);
    byName.set(name, p);
  }
  return [...byName.values()];
}

/** Generic resources of one sinfo `%G` field; `(null)` means none. */
export function gresList(field: string): string[] {
  return field
    .split(',')
    .map((g) => g.trim())
    .filter((g) => g !== '' && g !== '(null)');
}

/** The partitions the Slurm controller reports; UnavailableError when sinfo is missing or fails. */
export async function slurmPartitions(env: Env): Promise<SlurmPartition[]> {
  const sinfo = findBinary('sinfo', env);
  if (sinfo === null) throw new UnavailableError('sinfo is not installed: no Slurm client on this machine');
  const r = await runCommand([sinfo, ...SINFO_ARGS], env, PROBE_TIMEOUT_MS);
  if (r.code !== 0 || r.timedOut) throw new UnavailableError(`sinfo failed: ${r.timedOut ? 'no answer' : (lastLine(r.stderr) ?? `exit ${r.code}`)}`);
  return parseSinfo(r.stdout);
}

export type SchedulerDetection = {
  local: true;
  slurm: { found: boolean; partitions?: SlurmPartition[]; error?: string };
  pbs: { found: boolean };
  lsf: { found: boolean };
  apptainer: { found: boolean; version?: string };
  singularity: { found: boolean; version?: string };
  docker: { found: boolean; daemon: boolean; error?: string };
  podman: { found: boolean; version?: string };
};

/** Where node commands can run on this machine: schedulers by their submit command, container runtimes by probe. */
export async function detectSchedulers(env: Env): Promise<SchedulerDetection> {
  const [slurm, apptainer, singularity, docker, podman] = await Promise.all([
    detectSlurm(env),
    probeRuntime('apptainer', env),
    probeRuntime('singularity', env),
    probeRuntime('docker', env),
    probeRuntime('podman', env),
  ]);
  return {
    local: true,
    slurm,
    pbs: { found: findBinary('qsub', env) !== null },
    lsf: { found: findBinary('bsub', env) !== null },
    apptainer: versionOnly(apptainer),
    singularity: versionOnly(singularity),
    docker: { found: docker.found, daemon: docker.daemon === true, ...(docker.error ? { error: docker.error } : {}) },
    podman: versionOnly(podman),
  };
}

async function detectSlurm(env: Env): Promise<SchedulerDetection['slurm']> {
  if (findBinary('sbatch', env) === null) return { found: false };
  try {
    return { found: true, partitions: await slurmPartitions(env) };
  } catch (err) {
    return { found: true, error: (err as Error).message };
  }
}

function versionOnly(p: RuntimeProbe): { found: boolean; version?: string } {
  return p.version ? { found: p.found, version: p.version } : { found: p.found };
}
