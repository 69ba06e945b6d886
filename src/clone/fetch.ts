import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { NotFoundError, SvcError, UnavailableError } from '../core/errors.ts';
import { readCapped } from '../core/outbound.ts';

const MAX_JSON = 16 * 1024 * 1024;

export class FetchTimeoutError extends UnavailableError {}

/**
 * GET `url` into `file`, streamed chunk by chunk with back-pressure. `timeoutMs` bounds the wait
 * for the response and every gap between chunks (a stalled server fails; a slow steady one does not).
 * 404 → NotFoundError; 401/403 → SvcError naming the status; any other non-2xx → UnavailableError.
 */
export async function downloadToFile(url: string, file: string, opts: { headers?: Record<string, string>; timeoutMs: number; what?: string }): Promise<{ size: number }> {
  const what = opts.what ?? url;
  const ctrl = new AbortController();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let timedOut = false;
  const arm = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      ctrl.abort();
    }, opts.timeoutMs);
  };
  arm();
  const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
  // the open is asynchronous: wait for it, so a refusal that comes back first cannot leave an open
  // pending that recreates the file after the caller removed it
  const closed = new Promise<void>((resolve) => out.once('close', () => resolve()));
  try {
    await once(out, 'open');
    const res = await fetch(url, { headers: opts.headers, signal: ctrl.signal, redirect: 'follow' });
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw statusError(res.status, what);
    }
    let size = 0;
    if (res.body) {
      for await (const chunk of res.body) {
        arm();
        size += chunk.byteLength;
        if (!out.write(chunk)) await once(out, 'drain');
      }
    }
    out.end();
    await once(out, 'close');
    return { size };
  } catch (err) {
    out.destroy();
    await closed;
    if (timedOut) throw new FetchTimeoutError(`download of ${what} timed out: no data for ${Math.round(opts.timeoutMs / 1000)} s`, 'try again, or raise SVC_CLONE_HTTP_TIMEOUT');
    if (err instanceof SvcError) throw err;
    throw new UnavailableError(`download of ${what} failed: ${(err as Error).message}`);
  } finally {
    if (timer) clearTimeout(timer);
  }
}

/** GET a small JSON document (release listings, records) with the same timeout rule. */
export async function fetchJson(url: string, opts: { headers?: Record<string, string>; timeoutMs: number; what: string }): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: 'application/json', ...opts.headers }, signal: AbortSignal.timeout(opts.timeoutMs) });
  } catch (err) {
    const name = (err as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') throw new FetchTimeoutError(`${opts.what}: no answer within ${Math.round(opts.timeoutMs / 1000)} s`, 'try again, or raise SVC_CLONE_HTTP_TIMEOUT');
    throw new UnavailableError(`${opts.what}: ${(err as Error).message}`);
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    throw statusError(res.status, opts.what);
  }
  // a listing or record is small; a server that sends more is not one
  const text = await readCapped(res, MAX_JSON, () => new UnavailableError(`${opts.what}: the answer is larger than ${MAX_JSON} bytes`));
  try {
    return JSON.parse(text);
  } catch {
    throw new UnavailableError(`${opts.what}: the answer is not JSON`);
  }
}

function statusError(status: number, what: string): SvcError {
  if (status === 404) return new NotFoundError(`${what}: not found (404)`);
  if (status === 401) return new SvcError(`${what}: authentication required or token not accepted (401)`, 'pass --token or set the registry token');
  if (status === 403) return new SvcError(`${what}: refused (403); the token may not read it`, 'a staged bundle is readable by its owner only');
  return new UnavailableError(`${what}: HTTP ${status}`);
}
