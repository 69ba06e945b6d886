import { timingSafeEqual } from 'node:crypto';
import { errorResponse } from './http.ts';

/** A request's path and query, its path alone, and the answer refusing it when it may not pass. */
export type Admission = { path: string; pathname: string; refused: Response | null };

/** Paths that hand out run data and so need the token; the page and its assets load without it. */
const GUARDED = (pathname: string) => pathname.startsWith('/api/') || pathname === '/codefile';
/** Where a browser cannot send a header (an event stream, a link) and may give ?token= instead. */
const TOKEN_IN_QUERY = new Set(['/api/logs', '/codefile']);

/**
 * What every request passes before routing: a Host this server answers to, a path the router reads
 * the same way we do, percent-encoding that decodes, and the token where one is set.
 */
export function admit(req: Request, opts: { hosts: Set<string> | null; token: Buffer | null }): Admission {
  const url = req.url;
  const start = url.indexOf('/', url.indexOf('//') + 2);
  const path = start < 0 ? '/' : url.slice(start);
  const q = path.indexOf('?');
  const pathname = q < 0 ? path : path.slice(0, q);
  return { path, pathname, refused: refusal(req, opts, start, path, pathname) };
}

function refusal(req: Request, opts: { hosts: Set<string> | null; token: Buffer | null }, start: number, path: string, pathname: string): Response | null {
  // the router takes the path from the 11th character on; a shorter host would make it route
  // another path than the one checked here
  if (start < 11 || req.url.indexOf('/', 11) !== start) return errorResponse(400, 'bad Host header');
  // a loopback server answers only to loopback names: a page whose name was rebound to 127.0.0.1 gets nothing
  if (opts.hosts && !opts.hosts.has((req.headers.get('host') ?? '').toLowerCase())) return errorResponse(421, 'this server answers only to 127.0.0.1, localhost and [::1]');
  try {
    decodeURIComponent(pathname);
  } catch {
    return errorResponse(400, 'malformed percent-encoding in the path');
  }
  // a preflight carries no credentials by design; it is answered without any data
  if (opts.token && req.method !== 'OPTIONS' && GUARDED(pathname) && !tokenMatches(req, path, pathname, opts.token)) {
    return errorResponse(401, 'missing or wrong token: send Authorization: Bearer <SVC_GUI_TOKEN>');
  }
  return null;
}

/** An address only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/** The loopback names a server on `port` answers to. */
export function loopbackHosts(port: number): Set<string> {
  return new Set(['127.0.0.1', 'localhost', '[::1]'].flatMap((h) => [h, `${h}:${port}`]));
}

function tokenMatches(req: Request, path: string, pathname: string, expected: Buffer): boolean {
  const header = req.headers.get('authorization') ?? '';
  const fromQuery = TOKEN_IN_QUERY.has(pathname) && path.length > pathname.length ? new URLSearchParams(path.slice(pathname.length + 1)).get('token') : null;
  const given = Buffer.from(header.startsWith('Bearer ') ? header.slice(7) : (fromQuery ?? ''));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A token in the query is a secret: it never reaches the access log, however its name is spelled. */
export function redactToken(path: string): string {
  const q = path.indexOf('?');
  if (q < 0 || !/token/i.test(decodeSafe(path.slice(q)))) return path;
  const params = new URLSearchParams(path.slice(q + 1));
  for (const key of new Set(params.keys())) if (/token/i.test(key)) params.set(key, 'REDACTED');
  return `${path.slice(0, q)}?${params}`;
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Whether a Host header names this machine's loopback interface, whatever its port. */
export function namesLoopback(host: string | null): boolean {
  let name: string;
  try {
    name = new URL(`http://${host}`).hostname;
  } catch {
    return false;
  }
  // the URL parser has turned any IPv4 spelling into dotted decimal, so 127.0.0.1.example is no match
  return name === 'localhost' || name === '[::1]' || /^127(\.\d{1,3}){3}$/.test(name);
}
