import { log } from '../core/log.ts';
import type { Env } from '../core/config/env-vars.ts';
import { UnavailableError } from '../core/errors.ts';
import { dockerDaemon, findBinary, gresList, PROBE_TIMEOUT_MS } from './detect.ts';
import { lastLine, runCommand } from '../core/run-command.ts';

export const SANDBOX_KINDS = ['local', 'slurm', 'docker', 'apptainer', 'singularity'] as const;
export type SandboxKind = (typeof SANDBOX_KINDS)[number];

export const FALLBACK_OVERRIDE = 'SVC_PHASE1_ALLOW_FALLBACK';
export const NO_GRES_OVERRIDE = 'SVC_SLURM_ALLOW_NO_GRES';

export type SandboxDecision = { kind: SandboxKind; warning?: string };

/**
 * Fails loud when the runtime a sandbox kind needs is missing: the docker daemon unreachable,
 * the apptainer/singularity binary missing, or for slurm no `sbatch` or no partition. With
 * SVC_PHASE1_ALLOW_FALLBACK=1 the sandbox falls back to local and a warning says so.
 */
export async function checkSandbox(kind: SandboxKind, env: Env): Promise<SandboxDecision> {
  const problem = await sandboxProblem(kind, env);
  if (problem === null) return { kind };
  if (env[FALLBACK_OVERRIDE] !== '1') throw new UnavailableError(`sandbox ${kind}: ${problem}`, `set ${FALLBACK_OVERRIDE}=1 to run locally instead`);
  const warning = `sandbox ${kind}: ${problem}; running locally because ${FALLBACK_OVERRIDE}=1`;
  log.warn(warning);
  return { kind: 'local', warning };
}

/** Why `kind` cannot run here (one line), or null when it can; checkSandbox's test without its verdict. */
export async function sandboxProblem(kind: SandboxKind, env: Env): Promise<string | null> {
  switch (kind) {
    case 'local':
      return null;
    case 'docker': {
      const d = await dockerDaemon(env);
      return d.reachable ? null : `the docker daemon is unreachable (${d.error ?? 'no answer'})`;
    }
    case 'apptainer':
    case 'singularity':
      return findBinary(kind, env) === null ? `${kind} is not installed` : null;
    case 'slurm': {
      if (findBinary('sbatch', env) === null) return 'sbatch is not installed';
      const parts = await sinfoField('%P', env);
      if (typeof parts !== 'object') return `no partition: ${parts}`;
      return parts.length === 0 ? 'no partition: sinfo reports none' : null;
    }
  }
}

export type GpuDecision = { gpus: number; warning?: string };

/**
 * A GPU request where no node reports a `gpu` generic resource (`sinfo -o %G`; of `partition`
 * when given) fails loud; with SVC_SLURM_ALLOW_NO_GRES=1 the request is dropped with a warning.
 */
export async function checkGpuRequest(gpus: number, env: Env, partition: string | null = null): Promise<GpuDecision> {
  if (gpus <= 0) return { gpus };
  const gres = await sinfoField('%G', env, partition);
  const all = typeof gres === 'object' ? gres.flatMap(gresList) : [];
  if (all.some((g) => /^gpu(:|\(|$)/.test(g))) return { gpus };
  const where = partition === null ? 'the cluster' : `partition ${partition}`;
  const why = typeof gres !== 'object' ? `its generic resources cannot be read (${gres})` : `${where} reports no ${all.length === 0 ? 'generic resources' : 'GPU among its generic resources'} (sinfo -o %G)`;
  if (env[NO_GRES_OVERRIDE] !== '1') throw new UnavailableError(`${gpus} GPU(s) requested but ${why}`, `set ${NO_GRES_OVERRIDE}=1 to submit without the GPU request`);
  const warning = `${gpus} GPU(s) requested but ${why}; submitting without GPUs because ${NO_GRES_OVERRIDE}=1`;
  log.warn(warning);
  return { gpus: 0, warning };
}

/** The non-empty lines of `sinfo -h -o <field>` (of one partition when given), or why they cannot be read. */
async function sinfoField(field: string, env: Env, partition: string | null = null): Promise<string[] | string> {
  const sinfo = findBinary('sinfo', env);
  if (sinfo === null) return 'sinfo is not installed';
  const r = await runCommand([sinfo, '-h', ...(partition === null ? [] : ['-p', partition]), '-o', field], env, PROBE_TIMEOUT_MS);
  if (r.timedOut) return 'sinfo gave no answer';
  if (r.code !== 0) return `sinfo failed: ${lastLine(r.stderr) ?? `exit ${r.code}`}`;
  return r.stdout.split('\n').map((l) => l.trim()).filter((l) => l !== '');
}
