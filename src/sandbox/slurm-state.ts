/**
 * Slurm's job states mapped onto ours, and the parsers for the three places a state can come
 * from: `squeue` (all jobs the controller still holds), `sacct` (the accounting database, when
 * the cluster has one) and `scontrol show job` (text; 22.05 has no --json there).
 */
import type { JobReason, JobStatus } from './executor.ts';

/** A job's state as the scheduler reports it; the exit file has its say after. */
export type SchedulerState = Omit<JobStatus, 'exitCode'>;

const REASONS: Record<string, JobReason> = { TIMEOUT: 'TIMEOUT', CANCELLED: 'CANCELLED', OUT_OF_MEMORY: 'OUT_OF_MEMORY', NODE_FAIL: 'NODE_FAIL', DEADLINE: 'TIMEOUT', PREEMPTED: 'CANCELLED' };
const PENDING = new Set(['PENDING', 'CONFIGURING', 'REQUEUED', 'REQUEUE_FED', 'REQUEUE_HOLD', 'RESIZING']);
const RUNNING = new Set(['RUNNING', 'COMPLETING', 'SUSPENDED', 'STOPPED', 'SIGNALING', 'STAGE_OUT', 'RESV_DEL_HOLD']);

/** `CANCELLED by 0` (sacct) and `CANCELLED+` count as CANCELLED. */
export function mapSlurmState(raw: string): SchedulerState {
  const name = raw.trim().split(/[\s+]/)[0]?.toUpperCase() ?? '';
  if (PENDING.has(name)) return { state: 'PENDING' };
  if (RUNNING.has(name)) return { state: 'RUNNING' };
  if (name === 'COMPLETED') return { state: 'COMPLETED' };
  if (name === 'FAILED') return { state: 'FAILED' };
  const reason = REASONS[name];
  if (reason) return { state: 'FAILED', reason };
  return { state: 'ERROR' }; // BOOT_FAIL, REVOKED, SPECIAL_EXIT and anything unknown
}

/** Lines of `squeue -h -o '%i|%T'` or `sacct -n -X -P -o JobIDRaw,State`. */
export function parsePipeTable(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const [id, state] = line.trim().split('|');
    if (id && state) out.set(id, state);
  }
  return out;
}

/** `JobState=` from `scontrol show job <id>`, or null when Slurm no longer knows the job. */
export function parseScontrolState(text: string): string | null {
  return /\bJobState=(\S+)/.exec(text)?.[1] ?? null;
}

/**
 * A Slurm duration (`squeue %l`, `%M`, `sinfo %l`: `days-hours:minutes:seconds`, `hours:minutes:seconds`,
 * `minutes:seconds`, a bare number of minutes) in seconds; `UNLIMITED`/`infinite` is Infinity,
 * anything else (`NOT_SET`, `INVALID`) null.
 */
export function slurmSeconds(text: string): number | null {
  const t = text.trim();
  if (/^(unlimited|infinite)$/i.test(t)) return Number.POSITIVE_INFINITY;
  const m = /^(?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?$/.exec(t);
  if (!m) return null;
  const [days, a, b, c] = [m[1], m[2], m[3], m[4]].map((x) => (x === undefined ? undefined : Number(x)));
  // with days the first field is hours (`1-02`, `1-02:03`); without, a lone number is minutes and `a:b` is minutes:seconds
  if (days !== undefined) return days * 86_400 + (a ?? 0) * 3600 + (b ?? 0) * 60 + (c ?? 0);
  if (c !== undefined) return (a ?? 0) * 3600 + (b ?? 0) * 60 + c;
  if (b !== undefined) return (a ?? 0) * 60 + b;
  return (a ?? 0) * 60;
}
