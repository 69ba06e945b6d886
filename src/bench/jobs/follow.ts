import type { JobStatus } from '../../schema/bench-api.ts';
import type { JobStore } from './store.ts';
import type { StoredLogLine } from './types.ts';

/**
 * How often a follower looks for lines another process appended (this process's wake it at once).
 * A quiet poll is two indexed lookups (the job's row, its lines after the last one), so it can be often.
 */
export const FOLLOW_POLL_MS = 50;

/** New lines in order; `done` is the job's final status once every line before its end was given. */
export type FollowBatch = { lines: StoredLogLine[]; done: JobStatus | null };

/**
 * A job's log from the line after `afterSeq` on, as it grows, until the job ends or `signal` aborts.
 * An append in this process wakes the follower at once; lines written by another process are
 * found by polling the store. A quiet poll yields an empty batch, so a reader can send heartbeats.
 * `closing` (the store is about to close): the lines there are now are given, then the follow ends.
 */
export async function* followJobLog(store: JobStore, jobId: string, afterSeq: number, signal: AbortSignal, opts: { pollMs?: number; closing?: AbortSignal } = {}): AsyncGenerator<FollowBatch> {
  const { pollMs = FOLLOW_POLL_MS, closing } = opts;
  let changed = false;
  let wake: (() => void) | null = null;
  const poke = () => {
    changed = true;
    wake?.();
  };
  const unsubscribe = store.onChange(jobId, poke);
  signal.addEventListener('abort', poke, { once: true });
  closing?.addEventListener('abort', poke, { once: true });
  let last = afterSeq;
  try {
    // a closed store (its server is stopping) ends the stream without `done`: the client reconnects
    while (!signal.aborted && !store.closed) {
      const lastRead = closing?.aborted === true;
      changed = false;
      // the status is read before the lines: a job's last lines are written before (or with) its end
      const state = store.progressOf(jobId);
      const lines = store.logsAfter(jobId, last);
      if (lines.length > 0) last = lines[lines.length - 1]!.seq;
      const ended = state === null || state.status === 'completed' || state.status === 'failed';
      if (ended && (lines.length === 0 || last >= (state?.log_count ?? 0) - 1)) {
        yield { lines, done: state?.status ?? 'failed' };
        return;
      }
      if (lines.length > 0) {
        // more may be waiting: a batch is capped
        yield { lines, done: null };
        continue;
      }
      if (lastRead) return;
      if (!changed) await waitFor(pollMs, (fn) => (wake = fn));
      wake = null;
      if (!changed) yield { lines: [], done: null };
    }
  } finally {
    unsubscribe();
    signal.removeEventListener('abort', poke);
    closing?.removeEventListener('abort', poke);
  }
}

function waitFor(ms: number, onWake: (fn: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    onWake(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
