import { InputError } from '../core/errors.ts';

/**
 * Which web pages may use the dashboard. Any page the user opens can send requests to a local
 * server, so cross-origin requests are honoured only from this machine's own pages (loopback
 * origins), from origins the user listed on purpose (--cors-origin, SVC_GUI_CORS_ORIGINS), and
 * from any page that carries the token. Requests without an Origin header (curl, scripts) are
 * not sent by a web page and are not affected.
 */
export type OriginClass = 'none' | 'trusted' | 'foreign';

/** `http://127.0.0.1:*`, `http://localhost:*`, `http://[::1]:*`: pages served by this machine. */
export function isLoopbackOrigin(origin: string): boolean {
  const url = URL.parse(origin);
  return url !== null && url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

/**
 * The origin of a request as seen from a server answering at `host` (its Host header): none,
 * trusted (loopback, listed, or the page this server itself served) or foreign.
 */
export function classifyOrigin(origin: string | null, host: string | null, listed: ReadonlySet<string>): OriginClass {
  if (origin === null) return 'none';
  const url = URL.parse(origin);
  if (url === null) return 'foreign';
  if (isLoopbackOrigin(origin) || listed.has(url.origin)) return 'trusted';
  // the page this server served (reached by a non-loopback address) calling back home
  if (host !== null && url.host === host.toLowerCase()) return 'trusted';
  return 'foreign';
}

/**
 * The origins a comma- or space-separated list names, each as `scheme://host[:port]`. A `*`, a
 * path or anything else that is not an origin is refused: the list widens trust on purpose, one
 * origin at a time.
 */
export function parseOriginList(text: string, from: string): Set<string> {
  const out = new Set<string>();
  for (const item of text.split(/[\s,]+/).filter(Boolean)) {
    const url = URL.parse(item);
    const bare = url !== null && url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '' && !item.includes('*');
    if (url === null || !bare || !['http:', 'https:'].includes(url.protocol)) {
      throw new InputError(`${from}: '${item}' is not an origin`, 'give origins such as https://notebook.example.org or http://192.168.1.5:3000, separated by commas');
    }
    out.add(url.origin);
  }
  return out;
}
