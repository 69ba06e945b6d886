import { readCapped, RetriesExhausted, retryAfterMs, withRetries } from '../core/outbound.ts';

/** Why a provider gave no papers; `offline` covers unreachable hosts and timeouts. */
export type FailureKind = 'offline' | 'rate_limited' | 'http' | 'bad_answer';

export class ProviderFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'ProviderFailure';
  }
}

/** Far above any page of search results: a server sending more is broken, and would take all memory. */
export const MAX_PROVIDER_ANSWER_BYTES = 16 * 1024 * 1024;

export type FetchOptions = {
  headers?: Record<string, string>;
  /** epoch ms after which the provider counts as unreachable, retries included */
  deadline: number;
  signal?: AbortSignal;
  /** retries of an answer 429 or 503 (rate limits); default 2 */
  maxRetries?: number;
};

/** What a rate-limited request waits when the provider gives no Retry-After: 1 s, then 2 s, then 4 s. */
const BACKOFF_MS = [1000, 2000, 4000];

/** An answer 429 or 503: the provider asks to be called again later. */
class RateLimited extends Error {
  constructor(
    readonly status: number,
    readonly afterMs: number | null,
  ) {
    super(`rate limited (${status})`);
  }
}

/**
 * The body of a successful GET. A 429 or 503 is retried after the provider's Retry-After (or a
 * short backoff) when that wait ends before the deadline; every failure becomes a
 * ProviderFailure naming what happened, so the survey can carry on without this provider.
 */
export async function fetchText(url: string, opts: FetchOptions): Promise<string> {
  try {
    return await withRetries(() => fetchOnce(url, opts), {
      maxRetries: opts.maxRetries ?? 2,
      deadline: opts.deadline,
      signal: opts.signal,
      classify: (err) => (err instanceof RateLimited ? { retry: true, afterMs: err.afterMs === null ? null : Math.ceil(err.afterMs / 1000) * 1000 } : { retry: false, afterMs: null }),
      backoff: (n) => BACKOFF_MS[n] ?? 4000,
      // a provider asking for longer than the deadline allows is given up on at once, not asked again early
      maxWaitMs: Number.POSITIVE_INFINITY,
    });
  } catch (err) {
    if (!(err instanceof RetriesExhausted)) throw err;
    const { last, attempts, nextWaitMs } = err;
    if (!(last instanceof RateLimited)) throw last;
    throw new ProviderFailure('rate_limited', `${hostOf(url)} answered ${last.status} (rate limited) ${attempts} time${attempts > 1 ? 's' : ''}, last asking to wait ${Math.round((nextWaitMs ?? 0) / 1000)} s`);
  }
}

async function fetchOnce(url: string, opts: FetchOptions): Promise<string> {
  const left = opts.deadline - Date.now();
  if (left <= 0) throw new ProviderFailure('offline', `no answer from ${hostOf(url)} before the timeout`);
  const timeout = AbortSignal.timeout(left);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let res: Response;
  let body: string;
  try {
    res = await fetch(url, { headers: opts.headers, signal });
    body = await readCapped(res, MAX_PROVIDER_ANSWER_BYTES, () => new ProviderFailure('bad_answer', `${hostOf(url)} sent more than ${MAX_PROVIDER_ANSWER_BYTES / 1024 / 1024} MB for one answer`));
  } catch (err) {
    if (opts.signal?.aborted) throw opts.signal.reason;
    if (err instanceof ProviderFailure) throw err;
    if (timeout.aborted) throw new ProviderFailure('offline', `no answer from ${hostOf(url)} before the timeout`);
    throw new ProviderFailure('offline', `${hostOf(url)} is not reachable (${(err as Error).message.split('\n')[0]})`);
  }
  if (res.ok) return body;
  if (res.status === 429 || res.status === 503) throw new RateLimited(res.status, retryAfterMs(res.headers));
  throw new ProviderFailure('http', `${hostOf(url)} answered ${res.status}${detail(body)}`);
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The start of an error body, for the note: providers explain a refusal there. */
function detail(body: string): string {
  const text = body.replace(/\s+/g, ' ').trim().slice(0, 160);
  return text ? `: ${text}` : '';
}
