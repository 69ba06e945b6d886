import { abortableSleep } from '../core/outbound.ts';

/** How long to wait before a retry, at most: a server asking for longer is asked again after this. */
const MAX_RETRY_WAIT_MS = 60_000;
const BASE_BACKOFF_MS = 500;

/** What the caller's classifier says about a failed attempt. */
export type Verdict = { retry: boolean; afterMs: number | null };

export type RetryPolicy = {
  maxRetries: number;
  /** epoch ms after which no retry starts (the call's timeout) */
  deadline: number;
  signal: AbortSignal;
  classify: (err: unknown) => Verdict;
};

/** The outcome of the last attempt when retrying stops. */
export class RetriesExhausted extends Error {
  constructor(
    readonly last: unknown,
    readonly attempts: number,
  ) {
    super('retries exhausted');
  }
}

/**
 * Runs `attempt` until it succeeds, the classifier says the error is final, retries run out, or
 * the next wait would pass the deadline or the signal fires. Waits are what the server asked for
 * (Retry-After) or exponential backoff with jitter, capped at MAX_RETRY_WAIT_MS.
 */
export async function withRetries<T>(attempt: () => Promise<T>, policy: RetryPolicy): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (policy.signal.aborted) throw err;
      const verdict = policy.classify(err);
      if (!verdict.retry || n >= policy.maxRetries) throw new RetriesExhausted(err, n + 1);
      const wait = Math.min(verdict.afterMs ?? backoffMs(n), MAX_RETRY_WAIT_MS);
      if (Date.now() + wait >= policy.deadline) throw new RetriesExhausted(err, n + 1);
      await abortableSleep(wait, policy.signal);
    }
  }
}

/** Exponential backoff with jitter: half of the step fixed, half random, so callers spread out. */
export function backoffMs(retry: number): number {
  const step = BASE_BACKOFF_MS * 2 ** retry;
  return step / 2 + Math.random() * (step / 2);
}
