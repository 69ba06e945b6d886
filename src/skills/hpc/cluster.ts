/**
 * What every hpc-skill tool shares: the Slurm executor, whose job index lives under the default
 * work directory so that job_status and job_cancel find a job from its id alone; the partition,
 * resolved with the scheduler precedence; and the wall time in Slurm's notation.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Type as T } from '@sinclair/typebox';
import { loadConfig } from '../../core/config/config.ts';
import { envValue } from '../../core/config/env-vars.ts';
import { experimentPartition } from '../../core/config/experiment-md.ts';
import { InputError } from '../../core/errors.ts';
import { printable } from '../../core/text.ts';
import type { JobRef, JobSpec, JobState } from '../../sandbox/executor.ts';
import { nodeJobComment, noteNodeJob } from '../../sandbox/node-jobs.ts';
import { resolvePartition } from '../../sandbox/partition.ts';
import { SlurmExecutor } from '../../sandbox/slurm.ts';
import { systemRunner } from '../../sandbox/slurm-runner.ts';
import type { ToolContext } from '../../mcp/tool.ts';
import { openWorkDir } from '../../coding/work-dir.ts';

export const DEFAULT_WALLTIME = '01:00:00';

export const PartitionParam = T.Optional(
  T.String({ description: 'Slurm partition; default the experiment file partition line, SVC_SLURM_PARTITION, SLURM_DEFAULT_PARTITION, else the cluster default' }),
);
export const WalltimeParam = T.String({ default: DEFAULT_WALLTIME, description: `wall-clock limit, [D-]HH:MM:SS (default ${DEFAULT_WALLTIME})` });
export const NodesParam = T.Integer({ default: 1, minimum: 1, maximum: 10_000, description: 'nodes for the job (default 1)' });

export function slurmExecutor(env: ToolContext['env']): SlurmExecutor {
  const stateDir = join(openWorkDir(undefined, env), '.svc-hpc');
  const logDir = envValue(env, 'SLURM_LOG_DIR');
  return new SlurmExecutor({ stateDir, runner: systemRunner(env), ...(logDir ? { logDir } : {}) });
}

export type Submitted = { job_id: string; status: JobState; partition: string | null; warnings?: string[] };

/**
 * Submits the job to the partition the precedence picks and reports the state the scheduler gives
 * it at once. A job submitted for a node is marked as the node's: it is cancelled when the node ends.
 */
export async function submitToSlurm(spec: Omit<JobSpec, 'partition'>, given: string | undefined, env: ToolContext['env'], warnings: string[] = []): Promise<Submitted> {
  const experiment = experimentLine(env);
  const part = await resolvePartition({ explicit: given, experiment, env, cfg: loadConfig({ env }), runner: systemRunner(env) });
  const slurm = slurmExecutor(env);
  const comment = nodeJobComment(env);
  if (comment) noteNodeJob(env);
  const ref: JobRef = await slurm.submit({ ...spec, ...(part.name ? { partition: part.name } : {}), ...(comment ? { comment } : {}) });
  const state = (await slurm.status([ref.id])).get(ref.id)?.state ?? 'PENDING';
  const all = part.warning ? [...warnings, part.warning] : warnings;
  return { job_id: ref.id, status: state, partition: part.name, ...(all.length > 0 ? { warnings: all } : {}) };
}

/** The partition line of the run's experiment file (`<SVC_CHECKPOINT_DIR>/experiment.md`), if any. */
export function experimentLine(env: ToolContext['env']): string | null {
  const dir = envValue(env, 'SVC_CHECKPOINT_DIR');
  if (!dir) return null;
  try {
    return experimentPartition(readFileSync(join(dir, 'experiment.md'), 'utf8'));
  } catch {
    return null;
  }
}

/** Seconds of a Slurm time limit: HH:MM:SS, D-HH:MM:SS, or MM:SS. */
export function walltimeSeconds(text: string): number {
  const m = /^(?:(\d+)-)?(?:(\d+):)?(\d+):(\d+)$/.exec(text.trim());
  const [days, hours, minutes, seconds] = (m?.slice(1) ?? []).map((v) => Number(v ?? 0));
  if (!m || minutes! >= 60 || seconds! >= 60 || (m[1] !== undefined && m[2] === undefined)) {
    throw new InputError(`walltime '${printable(text)}' is not HH:MM:SS or D-HH:MM:SS`, 'e.g. 01:00:00 for one hour');
  }
  const total = ((days! * 24 + hours!) * 60 + minutes!) * 60 + seconds!;
  if (total <= 0) throw new InputError(`walltime '${printable(text)}' is zero`, 'give a positive time limit');
  return total;
}

/** `#SBATCH` lines put first in a script (after its #! line), so the script's own lines win. */
export function withDirectives(script: string, directives: string[]): string {
  const lines = directives.map((d) => `#SBATCH ${d}`);
  if (!script.startsWith('#!')) return [...lines, script].join('\n');
  const nl = script.indexOf('\n');
  const shebang = nl < 0 ? script : script.slice(0, nl);
  return [shebang, ...lines, nl < 0 ? '' : script.slice(nl + 1)].join('\n');
}
