/**
 * What every outbound HTTP client of svc shares (the model layer, literature search, scheduler
 * polling): the wait a server asked for, and a wait that ends at once when its signal aborts.
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
  let timer: ReturnType<typeof setTimeout> | undefined;
  const watch = () => {
    timer = setTimeout(() => ctrl.abort(stalled()), stallMs);
  };
  const why = (err: unknown) => (ctrl.signal.aborted ? ctrl.signal.reason : err);
  watch();
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
  // highWaterMark 0: nothing is read ahead, so the limit runs only while the caller waits for a chunk
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(out) {
        watch();
        try {
          const { done, value } = await reader.read();
          if (done) out.close();
          else out.enqueue(value);
        } catch (err) {
          out.error(why(err));
        } finally {
          clearTimeout(timer);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}
