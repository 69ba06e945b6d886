/**
 * LSF job states mapped onto ours, from `bjobs -o 'jobid stat exit_code exit_reason' -json`
 * (LSF 10.1): one record per asked id, with an ERROR field for an id LSF no longer knows.
 */
import { SvcError } from '../core/errors.ts';
import type { SchedulerState } from './slurm-state.ts';

const PENDING = new Set(['PEND', 'PSUSP', 'WAIT']);
const RUNNING = new Set(['RUN', 'USUSP', 'SSUSP', 'PROV']);

export function mapLsfState(stat: string, exitReason: string, cancelled: boolean): SchedulerState {
  if (PENDING.has(stat)) return { state: 'PENDING' };
  if (RUNNING.has(stat)) return { state: 'RUNNING' };
  if (stat === 'DONE') return { state: 'COMPLETED' };
  if (stat !== 'EXIT') return { state: 'ERROR' }; // UNKWN, ZOMBI
  if (cancelled || /TERM_OWNER|TERM_ADMIN|killed by owner/i.test(exitReason)) return { state: 'FAILED', reason: 'CANCELLED' };
  if (/TERM_RUNLIMIT|run time limit/i.test(exitReason)) return { state: 'FAILED', reason: 'TIMEOUT' };
  if (/TERM_MEMLIMIT|memory usage limit/i.test(exitReason)) return { state: 'FAILED', reason: 'OUT_OF_MEMORY' };
  return { state: 'FAILED' };
}

interface BjobsRecord {
  JOBID?: string;
  STAT?: string;
  EXIT_REASON?: string;
  ERROR?: string;
}

export function parseBjobsJson(text: string, cancelled: Set<string>): Map<string, SchedulerState> {
  let doc: { RECORDS?: BjobsRecord[] };
  try {
    doc = JSON.parse(text);
  } catch {
    throw new SvcError(`bjobs printed something other than JSON: ${text.trim().slice(0, 80)}`);
  }
  const out = new Map<string, SchedulerState>();
  for (const r of doc.RECORDS ?? []) {
    if (r.JOBID && r.STAT && !r.ERROR) out.set(r.JOBID, mapLsfState(r.STAT, r.EXIT_REASON ?? '', cancelled.has(r.JOBID)));
  }
  return out;
}
