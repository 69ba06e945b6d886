/**
 * The scheduler partition a job is submitted to. The named value comes from the tool argument,
 * else the experiment file's partition line, else SVC_SLURM_PARTITION (or settings.json), and is
 * checked against the partitions `sinfo` reports; then SLURM_DEFAULT_PARTITION; then the
 * scheduler's default partition (marked `*`), else its first. None anywhere is the fail-loud
 * precondition of the slurm sandbox.
 */
import type { Config } from '../core/config/config.ts';
import { effective } from '../core/config/config.ts';
import type { Env } from '../core/config/env-vars.ts';
import { InputError, UnavailableError } from '../core/errors.ts';
import { printable } from '../core/text.ts';
import { parseSinfo, SINFO_ARGS, type SlurmPartition } from './detect.ts';
import { checkSandbox } from './preconditions.ts';
import type { CommandRunner } from './slurm-runner.ts';
import { systemRunner } from './slurm-runner.ts';

export type PartitionSource = 'argument' | 'experiment' | 'setting' | 'SLURM_DEFAULT_PARTITION' | 'scheduler';

export interface ResolvedPartition {
  /** null only when no partition exists and SVC_PHASE1_ALLOW_FALLBACK=1 lets the job go without one */
  name: string | null;
  source: PartitionSource | null;
  /** where the value was read, e.g. `env SVC_SLURM_PARTITION` */
  from: string;
  warning?: string;
}

export interface PartitionQuery {
  /** the tool argument */
  explicit?: string;
  /** the experiment file's partition line */
  experiment?: string | null;
  env: Env;
  cfg: Config;
  runner?: CommandRunner;
}

export async function resolvePartition(q: PartitionQuery): Promise<ResolvedPartition> {
  const named = namedPartition(q);
  const reported = await reportedPartitions(q.runner ?? systemRunner(q.env));
  if (named && named.source !== 'SLURM_DEFAULT_PARTITION') {
    // Without sinfo there is nothing to check against: sbatch is the judge.
    if (reported !== null && !reported.some((p) => p.name === named.name)) throw unknownPartition(named, reported);
    return named;
  }
  if (named) return named;
  const first = reported?.find((p) => p.default) ?? reported?.[0];
  if (first) return { name: first.name, source: 'scheduler', from: 'sinfo' };
  const decision = await checkSandbox('slurm', q.env);
  // checkSandbox passed: sinfo listed nothing a moment ago and something now, or not at all.
  if (decision.kind === 'slurm') throw new UnavailableError('sandbox slurm: no partition: sinfo reports none', 'set SVC_SLURM_PARTITION to a partition of the cluster');
  return { name: null, source: null, from: 'none', ...(decision.warning ? { warning: decision.warning } : {}) };
}

/** The first of argument, experiment line, SVC_SLURM_PARTITION/settings and SLURM_DEFAULT_PARTITION that is set. */
export function namedPartition(q: PartitionQuery): ResolvedPartition | null {
  if (q.explicit !== undefined && q.explicit.trim() !== '') return { name: q.explicit, source: 'argument', from: 'argument partition' };
  if (q.experiment != null && q.experiment.trim() !== '') return { name: q.experiment, source: 'experiment', from: 'experiment file partition line' };
  const e = effective(q.cfg, 'partition');
  if (typeof e.value !== 'string' || e.value === '') return null;
  const source: PartitionSource = /(^|\s)SLURM_DEFAULT_PARTITION$/.test(e.source) ? 'SLURM_DEFAULT_PARTITION' : 'setting';
  return { name: e.value, source, from: e.source };
}

/** The scheduler's partitions, or null when sinfo is missing or does not answer. */
async function reportedPartitions(run: CommandRunner): Promise<SlurmPartition[] | null> {
  try {
    const r = await run(['sinfo', ...SINFO_ARGS]);
    return r.code === 0 ? parseSinfo(r.stdout) : null;
  } catch (err) {
    if (err instanceof UnavailableError) return null;
    throw err;
  }
}

function unknownPartition(named: ResolvedPartition, reported: SlurmPartition[]): InputError {
  const list = reported.map((p) => (p.default ? `${p.name} (default)` : p.name)).join(', ') || 'none';
  return new InputError(`partition '${printable(named.name ?? '')}' (${named.from}) is not one the scheduler reports: ${list}`, 'choose one of the listed partitions');
}
