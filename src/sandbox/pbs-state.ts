/**
 * PBS job states mapped onto ours, from `qstat -x -f -F json` (PBS Pro) or `qstat -f` text
 * (Torque, and PBS Pro without -F). Exit statuses PBS Pro gives a job it killed: -29 walltime,
 * -27 memory; 271 (256 + SIGTERM) is Torque's walltime kill, and also what a qdel leaves.
 */
import { SvcError } from '../core/errors.ts';
import type { SchedulerState } from './slurm-state.ts';

const PENDING = new Set(['Q', 'H', 'W', 'T', 'M', 'U']);
const RUNNING = new Set(['R', 'E', 'B', 'S']);
const FINISHED = new Set(['F', 'C', 'X']);

export interface PbsJob {
  state: string;
  exitStatus: number | null;
}

export function mapPbsState(job: PbsJob, cancelled: boolean): SchedulerState {
  if (PENDING.has(job.state)) return { state: 'PENDING' };
  if (RUNNING.has(job.state)) return { state: 'RUNNING' };
  if (!FINISHED.has(job.state)) return { state: 'ERROR' };
  if (cancelled && job.exitStatus !== 0) return { state: 'FAILED', reason: 'CANCELLED' };
  if (job.exitStatus === -29 || job.exitStatus === 271) return { state: 'FAILED', reason: 'TIMEOUT' };
  if (job.exitStatus === -27) return { state: 'FAILED', reason: 'OUT_OF_MEMORY' };
  if (job.exitStatus === null || job.exitStatus < 0) return { state: 'ERROR' };
  return { state: job.exitStatus === 0 ? 'COMPLETED' : 'FAILED' };
}

/** `{"Jobs": {"<id>": {"job_state": "F", "Exit_status": 0, ...}}}`; no Jobs key when none is known. */
export function parseQstatJson(text: string): Map<string, PbsJob> {
  const out = new Map<string, PbsJob>();
  if (!text.trim()) return out;
  let doc: { Jobs?: Record<string, { job_state?: string; Exit_status?: number }> };
  try {
    doc = JSON.parse(text);
  } catch {
    throw new SvcError(`qstat printed something other than JSON: ${text.trim().slice(0, 80)}`);
  }
  for (const [id, j] of Object.entries(doc.Jobs ?? {})) {
    if (j.job_state) out.set(id, { state: j.job_state, exitStatus: typeof j.Exit_status === 'number' ? j.Exit_status : null });
  }
  return out;
}

/** Blocks of `Job Id: <id>` followed by indented `key = value` lines (Exit_status or exit_status). */
export function parseQstatText(text: string): Map<string, PbsJob> {
  const out = new Map<string, PbsJob>();
  for (const block of text.split(/^Job Id:\s*/m).slice(1)) {
    const id = block.split('\n')[0]?.trim() ?? '';
    const state = /^\s+job_state = (\S+)/m.exec(block)?.[1];
    const exit = /^\s+exit_status = (-?\d+)/im.exec(block)?.[1];
    if (id && state) out.set(id, { state, exitStatus: exit === undefined ? null : Number(exit) });
  }
  return out;
}
