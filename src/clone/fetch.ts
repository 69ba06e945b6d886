import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { NotFoundError, SvcError, UnavailableError } from '../core/errors.ts';
import { fetchWithStallTimeout, readCapped } from '../core/outbound.ts';
import { RegistryError, RegistryStallError } from '../registry/client.ts';

const MAX_JSON = 16 * 1024 * 1024;

export class FetchTimeoutError extends UnavailableError {}

/** What every clone source says when the other side stops sending. */
function stallError(what: string, timeoutMs: number): FetchTimeoutError {
  return new FetchTimeoutError(`${what} timed out: no data for ${timeoutMs / 1000} s`, 'try again, or raise SVC_CLONE_HTTP_TIMEOUT');
}

/**
 * GET `url` into `file`, streamed chunk by chunk with back-pressure. `timeoutMs` bounds the wait
 * for the response and every gap between chunks (a stalled server fails; a slow steady one does not).
 * 404 → NotFoundError; 401/403 → SvcError naming the status; any other non-2xx → UnavailableError.
 */
export async function downloadToFile(url: string, file: string, opts: { headers?: Record<string, string>; timeoutMs: number; what?: string }): Promise<{ size: number }> {
  const what = opts.what ?? url;
  const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
  // the open is asynchronous: wait for it, so a refusal that comes back first cannot leave an open
  // pending that recreates the file after the caller removed it
  const closed = new Promise<void>((resolve) => out.once('close', () => resolve()));
  try {
    await once(out, 'open');
    const res = await fetchWithStallTimeout(url, { headers: opts.headers, redirect: 'follow' }, opts.timeoutMs, () => stallError(`download of ${what}`, opts.timeoutMs));
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw statusError(res.status, what);
    }
    let size = 0;
    if (res.body) {
      for await (const chunk of res.body) {
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
    if (err instanceof SvcError) throw err;
    throw new UnavailableError(`download of ${what} failed: ${(err as Error).message}`);
  }
}

/** GET a small JSON document (release listings, records) with the same timeout rule. */
export async function fetchJson(url: string, opts: { headers?: Record<string, string>; timeoutMs: number; what: string }): Promise<unknown> {
  let res: Response;
  try {
    res = await fetchWithStallTimeout(url, { headers: { accept: 'application/json', ...opts.headers } }, opts.timeoutMs, () => stallError(opts.what, opts.timeoutMs));
  } catch (err) {
    if (err instanceof SvcError) throw err;
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

/**
 * A registry client's failure as the error any clone source fails with: its stall as a timeout,
 * an unknown or refused bundle as the status says, anything else (unreachable, damaged on the way,
 * a server error) as unavailable in the client's words.
 */
export function registryFailure(err: unknown, what: string): unknown {
  if (err instanceof RegistryStallError) return stallError(`download of ${what}`, err.stallMs);
  if (!(err instanceof RegistryError)) return err;
  if (err.status === 401 || err.status === 403 || err.status === 404) return statusError(err.status, what);
  // detail: the registry's own refusal; without it the failure is the client's finding
  const why = err.detail === undefined ? err.message : `HTTP ${err.status} ${err.detail}`;
  return new UnavailableError(`download of ${what} failed: ${why}`, err.hint);
}

function statusError(status: number, what: string): SvcError {
  if (status === 404) return new NotFoundError(`${what}: not found (404)`);
  if (status === 401) return new SvcError(`${what}: authentication required or token not accepted (401)`, 'pass --token or set the registry token');
  if (status === 403) return new SvcError(`${what}: refused (403); the token may not read it`, 'a staged bundle is readable by its owner only');
  return new UnavailableError(`${what}: HTTP ${status}`);
}
