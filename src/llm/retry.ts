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
      await sleep(wait, policy.signal);
    }
  }
}

/** Exponential backoff with jitter: half of the step fixed, half random, so callers spread out. */
export function backoffMs(retry: number): number {
  const step = BASE_BACKOFF_MS * 2 ** retry;
  return step / 2 + Math.random() * (step / 2);
}

/**
 * The wait a server asked for: `retry-after-ms` (milliseconds), else `Retry-After` in seconds or as
 * an HTTP date; null when absent or unreadable. Header names are matched case-insensitively.
 */
export function retryAfterMs(headers: Record<string, string> | undefined, now = Date.now()): number | null {
  if (!headers) return null;
  const get = (name: string) => Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1]?.trim();
  const ms = get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const after = get('retry-after');
  if (!after) return null;
  if (/^\d+(\.\d+)?$/.test(after)) return Number(after) * 1000;
  const at = Date.parse(after);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', abort);
    };
    const abort = () => {
      done();
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      done();
      resolve();
    }, ms);
    signal.addEventListener('abort', abort, { once: true });
  });
}
