import { SvcError } from '../../core/errors.ts';
import { parseLine } from '../../core/json-object.ts';

/** Why a backend failed, as the publish record and transform-skill tools report it. */
export type BackendErrorKind = 'auth' | 'network' | 'conflict' | 'not_found' | 'invalid';

/** A backend failure: one line, a kind, never a token. */
export class BackendError extends SvcError {
  constructor(
    readonly kind: BackendErrorKind,
    message: string,
    hint?: string,
  ) {
    super(message, hint, kind === 'invalid' ? 2 : 1);
    this.name = 'BackendError';
  }
}

/** Removes every secret from a line and keeps it to one line. */
export function scrub(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text.split('\n')[0] ?? '';
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('***');
  return out.length > 300 ? `${out.slice(0, 297)}...` : out;
}

/** The kind an HTTP status means. */
export function kindOfStatus(status: number): BackendErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 404 || status === 410) return 'not_found';
  if (status === 409 || status === 412) return 'conflict';
  if (status >= 400 && status < 500) return 'invalid';
  return 'network';
}

/** A failed HTTP answer as a BackendError naming `what`, the status and the server's own message (scrubbed). */
export async function httpError(res: Response, what: string, secrets: readonly (string | undefined)[]): Promise<BackendError> {
  let detail = '';
  try {
    const text = (await res.text()).trim();
    const j = parseLine(text);
    const m = j?.error ?? j?.message ?? j?.Message;
    detail = typeof m === 'string' ? m : typeof m === 'object' && m ? JSON.stringify(m) : text;
  } catch {
    /* no body */
  }
  const msg = `${what}: HTTP ${res.status}${detail ? ` ${detail}` : ''}`;
  return new BackendError(kindOfStatus(res.status), scrub(msg, secrets));
}

/** fetch, with a failure to connect as a `network` BackendError naming the host only. */
export async function request(url: string, init: RequestInit, what: string): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const host = URL.parse(url)?.host ?? url;
    const why = err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err);
    throw new BackendError('network', `${what}: cannot reach ${host} (${why})`);
  }
}

/** A settings or environment value as a non-empty string, else undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/** The first 16 hex of a digest, checked to be hex. */
export function short16(hex: string, what: string): string {
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new BackendError('invalid', `${what} is not a SHA-256 hex digest`);
  return hex.slice(0, 16);
}
