/**
 * What every outbound HTTP client of svc shares (the model layer, literature search, scheduler
 * polling, clone and the registry client): the wait a server asked for, a wait that ends at once
 * when its signal aborts, one retry loop, capped body reads and a timeout on a stalled download.
 */

/** Header lookup of a Fetch `Headers` or of a plain record, whatever the case of the names. */
type HeaderSource = Headers | Readonly<Record<string, string>> | undefined;

function header(headers: HeaderSource, name: string): string | undefined {
  if (!headers) return undefined;
  if (headers instanceof Headers) return headers.get(name)?.trim();
  return Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1]?.trim();
}

/**
 * The wait in milliseconds a server asked for: `retry-after-ms`, else `Retry-After` as seconds or
 * an HTTP date (a date in the past is no wait); null when absent or unreadable.
 */
export function retryAfterMs(headers: HeaderSource, now = Date.now()): number | null {
  const ms = header(headers, 'retry-after-ms');
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return Number(ms);
  const after = header(headers, 'retry-after');
  if (!after) return null;
  if (/^\d+(\.\d+)?$/.test(after)) return Number(after) * 1000;
  // an HTTP date names its month; without this, Date.parse reads '-3' as a year
  if (!/[A-Za-z]/.test(after)) return null;
  const at = Date.parse(after);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Waits `ms`; rejects with the signal's reason as soon as it aborts (at once when it already has). */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** How long to wait before a retry, at most: a server asking for longer is asked again after this. */
const MAX_RETRY_WAIT_MS = 60_000;
const BASE_BACKOFF_MS = 500;

/** What the caller's classifier says about a failed attempt: retry or not, and the wait the server asked for. */
export type Verdict = { retry: boolean; afterMs: number | null };

export type RetryPolicy = {
  maxRetries: number;
  /** epoch ms after which no retry starts (the call's timeout) */
  deadline: number;
  signal?: AbortSignal;
  classify: (err: unknown) => Verdict;
  /** the wait before retry `n` (from 0) when the server asked for none; default backoffMs */
  backoff?: (n: number) => number;
  /** the longest wait: a server asking for longer is asked again after this; default MAX_RETRY_WAIT_MS */
  maxWaitMs?: number;
};

/** The outcome of the last attempt when retrying stops. */
export class RetriesExhausted extends Error {
  constructor(
    readonly last: unknown,
    readonly attempts: number,
    /** the wait the last retryable failure asked for (or the backoff), before the cap; null when it was final */
    readonly nextWaitMs: number | null,
  ) {
    super('retries exhausted');
  }
}

/**
 * Runs `attempt` until it succeeds, the classifier says the error is final, retries run out, or
 * the next wait would pass the deadline or the signal fires. Waits are what the server asked for
 * (Retry-After) or the policy's backoff, capped at the policy's maxWaitMs.
 */
export async function withRetries<T>(attempt: () => Promise<T>, policy: RetryPolicy): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (policy.signal?.aborted) throw err;
      const verdict = policy.classify(err);
      if (!verdict.retry) throw new RetriesExhausted(err, n + 1, null);
      const wanted = verdict.afterMs ?? (policy.backoff ?? backoffMs)(n);
      const wait = Math.min(wanted, policy.maxWaitMs ?? MAX_RETRY_WAIT_MS);
      if (n >= policy.maxRetries || Date.now() + wait >= policy.deadline) throw new RetriesExhausted(err, n + 1, wanted);
      await abortableSleep(wait, policy.signal);
    }
  }
}

/** Exponential backoff with jitter: half of the step fixed, half random, so callers spread out. */
export function backoffMs(retry: number): number {
  const step = BASE_BACKOFF_MS * 2 ** retry;
  return step / 2 + Math.random() * (step / 2);
}

/**
 * A body (of a response, or of a request) as text, read no further than `maxBytes`: past it the
 * stream is cancelled and `tooLarge()` is thrown, so a sender without end cannot take all memory.
 * A declared Content-Length over the cap is refused before anything is read.
 */
export async function readCapped(message: Request | Response, maxBytes: number, tooLarge: () => Error): Promise<string> {
  return Buffer.from(await readCappedBytes(message, maxBytes, tooLarge)).toString('utf8');
}

/** readCapped's bytes, for a body that may not be text. */
export async function readCappedBytes(message: Request | Response, maxBytes: number, tooLarge: () => Error): Promise<Uint8Array> {
  const body = message.body;
  if (Number(message.headers.get('content-length') ?? 0) > maxBytes) {
    await body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks);
}

/**
 * fetch, held to a stall limit instead of a total one: the response must begin within `stallMs`,
 * and each chunk of its body must follow within `stallMs` of asking for it, else the request is
 * aborted and fails with `stalled()` (the fetch, or the body's read). A large download at a slow
 * but steady pace goes through; a server that stops sending does not hold its caller for ever.
 * Time the caller takes between reads is not counted.
 */
export async function fetchWithStallTimeout(url: string, init: RequestInit, stallMs: number, stalled: () => Error): Promise<Response> {
  const ctrl = new AbortController();
  const why = (err: unknown) => (ctrl.signal.aborted ? ctrl.signal.reason : err);
  const timer = setTimeout(() => ctrl.abort(stalled()), stallMs);
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: ctrl.signal });
  } catch (err) {
    throw why(err);
  } finally {
    clearTimeout(timer);
  }
  if (res.body === null) return res;
  const reader = res.body.getReader();
  // one timer, running only while a read is pending: when it fires it looks at how long that has been
  let pendingSince: number | null = null;
  let watchdog: ReturnType<typeof setTimeout> | null = null;
  // never what keeps a process alive: a finished download's last timer must not hold the exit
  const arm = (ms: number) => (watchdog = setTimeout(check, ms)).unref();
  const disarm = () => {
    pendingSince = null;
    if (watchdog) clearTimeout(watchdog);
    watchdog = null;
  };
  const check = () => {
    watchdog = null;
    if (pendingSince === null) return;
    const waited = performance.now() - pendingSince;
    if (waited >= stallMs) ctrl.abort(stalled());
    else arm(stallMs - waited);
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(out) {
      pendingSince = performance.now();
      if (!watchdog) arm(stallMs);
      try {
        const next = await reader.read();
        pendingSince = null;
        if (!next.done) return out.enqueue(next.value);
        disarm();
        out.close();
      } catch (err) {
        disarm();
        out.error(why(err));
      }
    },
    cancel(reason) {
      disarm();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

type Fetch = (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => Promise<Response>;

/**
 * fetch whose response bodies end with `tooLarge(origin)` past `maxBytes`, for a client that reads
 * answers whole itself (the model SDK): a server sending without end would otherwise take all memory.
 */
export function cappedFetch(inner: Fetch, maxBytes: number, tooLarge: (origin: string) => Error): typeof fetch {
  const capped: Fetch = async (input, init) => {
    const res = await inner(input, init);
    if (!res.body) return res;
    if (Number(res.headers.get('content-length') ?? 0) > maxBytes) {
      await res.body.cancel().catch(() => {});
      throw tooLarge(originOf(input));
    }
    let seen = 0;
    const body = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, ctl) {
          seen += chunk.byteLength;
          if (seen > maxBytes) ctl.error(tooLarge(originOf(input)));
          else ctl.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  return capped as typeof fetch;
}

function originOf(input: Parameters<typeof fetch>[0]): string {
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  return URL.parse(href)?.origin ?? 'its address';
}
