import { type Env, envValue } from '../../core/config/env-vars.ts';
import { InputError } from '../../core/errors.ts';

/** Where the memory backend is expected: MEMBACKEND_BASE_URL, its port, and the loopback address a local server binds for it. */
export type LocalTarget = { url: string; port: number; host: '127.0.0.1' | '::1' };

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** The configured backend URL, without a trailing slash. */
export function backendUrl(env: Env): string {
  return (envValue(env, 'MEMBACKEND_BASE_URL') ?? 'http://localhost:8283').replace(/\/+$/, '');
}

/**
 * The address a local server must answer on: MEMBACKEND_BASE_URL, which has to name this machine.
 * A server started elsewhere would never be the one the run talks to.
 */
export function localTarget(env: Env): LocalTarget {
  const url = backendUrl(env);
  const parsed = URL.parse(url);
  if (parsed === null) throw new InputError(`MEMBACKEND_BASE_URL is not a URL: '${url}'`, 'set it like http://localhost:8283');
  if (parsed.protocol !== 'http:') throw new InputError(`MEMBACKEND_BASE_URL must be an http:// URL for a local server, got '${url}'`);
  if (!LOOPBACK.has(parsed.hostname)) {
    throw new InputError(`MEMBACKEND_BASE_URL (${url}) is not on this machine, so a local server would not be the one svc uses`, 'unset it, or set it to http://localhost:<port>');
  }
  // a server on 127.0.0.1 never answers at [::1], and the other way round
  return { url, port: parsed.port === '' ? 80 : Number(parsed.port), host: parsed.hostname === '[::1]' ? '::1' : '127.0.0.1' };
}
