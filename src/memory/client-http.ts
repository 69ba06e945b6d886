import { NotFoundError, SvcError, UnavailableError } from '../core/errors.ts';
import { parseLine } from '../core/json-object.ts';
import { withoutCredentials } from '../core/text.ts';

export type HttpOptions = { baseUrl: string; apiKey?: string | null; timeoutMs: number; fetch?: typeof fetch };

/** A 4xx/5xx answer of the memory server, with Letta's `detail` when it gave one. */
export class MemoryServerError extends SvcError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'MemoryServerError';
  }
}

/**
 * One JSON request to the memory server, bounded by the timeout from start to the end of the body.
 * Unreachable or too slow: UnavailableError naming the URL; 401/403: names MEMBACKEND_API_KEY;
 * 404: NotFoundError; other failures: MemoryServerError with the server's detail.
 */
export async function requestJson(opts: HttpOptions, method: string, path: string, body?: unknown): Promise<unknown> {
  const url = `${opts.baseUrl.replace(/\/+$/, '')}${path}`;
  // messages reach logs and tables: they name the server without a user:password in its URL
  const shown = withoutCredentials(opts.baseUrl);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
  const doFetch = opts.fetch ?? fetch;
  let res: Response;
  let text: string;
  try {
    res = await doFetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(opts.timeoutMs) });
    text = await res.text();
  } catch (err) {
    const why = (err as Error)?.name === 'TimeoutError' ? `no answer within ${opts.timeoutMs / 1000} s` : `not reachable (${(err as NodeJS.ErrnoException)?.code ?? (err as Error)?.message ?? err})`;
    throw new UnavailableError(`memory server ${shown} (MEMBACKEND_BASE_URL): ${why}`, 'start one with `svc memory start-local`, or set MEMBACKEND_BASE_URL');
  }
  if (res.ok) return text === '' ? null : parse(text, `${shown.replace(/\/+$/, '')}${path}`);
  const said = detailOf(text);
  if (res.status === 401 || res.status === 403) {
    const key = opts.apiKey ? 'refused the key in MEMBACKEND_API_KEY' : 'needs a key: set MEMBACKEND_API_KEY';
    throw new SvcError(`memory server ${shown} ${key} (${res.status}${said ? `: ${said}` : ''})`, 'MEMBACKEND_API_KEY must be the key that server was started with');
  }
  if (res.status === 404) throw new NotFoundError(`memory server: ${said || `${method} ${path} not found`}`);
  throw new MemoryServerError(res.status, `memory server ${shown} answered ${res.status} to ${method} ${path.split('?')[0]}${said ? `: ${said}` : ''}`);
}

function parse(text: string, url: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new UnavailableError(`memory server at ${url} did not answer JSON`, 'is MEMBACKEND_BASE_URL the address of a memory server?');
  }
}

/** Letta's error text: a string `detail`, or FastAPI's list of validation messages. */
function detailOf(text: string): string {
  const d = parseLine(text)?.detail;
  if (typeof d === 'string') return d.split('\n')[0] ?? '';
  if (Array.isArray(d)) return d.map((e) => (e as { msg?: string })?.msg ?? JSON.stringify(e)).join('; ');
  // not JSON: the status alone says it
  return text.slice(0, 200).split('\n')[0] ?? '';
}
