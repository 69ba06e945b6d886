import { errorResponse } from '../http/response.ts';
import { bearerMatches } from '../http/serve.ts';
import { classifyOrigin, type OriginClass } from './origin.ts';

/**
 * A request as the dashboard decides on it: its canonical path and query (what the router is
 * given), the path alone, where it comes from, whether it carried the token, and the answer
 * refusing it when it may not pass.
 */
export type Admission = { path: string; pathname: string; origin: OriginClass; tokenGiven: boolean; refused: Response | null };

export type GateOptions = { token: Buffer | null; origins: ReadonlySet<string> };

/**
 * What loads without the token: the page and its assets. Everything else (the API, /state, the
 * source viewer, any path not known here) needs it: an unlisted spelling can only be refused.
 */
const isPublic = (pathname: string) => pathname === '/' || pathname.startsWith('/static/') || pathname === '/memory' || pathname.startsWith('/memory/');
/** Where a browser cannot send a header (an event stream, a link, an image) and may give ?token= instead. */
const TOKEN_IN_QUERY = new Set(['/api/logs', '/codefile']);
/** A benchmark job's event stream, `/api/bench/run/<job_id>/logs`, and its report's files, opened as links. */
const BENCH_JOB_LINKS = /^\/api\/bench\/run\/[^/]+\/(logs|report\/[^/]+\/.+)$/;
/** A checkpoint file's bytes, which an <img>, a PDF frame or a download link loads: `/api/checkpoint/<id>/file/raw`. */
const CHECKPOINT_RAW_FILE = /^\/api\/checkpoint\/[^/]+\/file\/raw$/;
const tokenInQuery = (pathname: string) => TOKEN_IN_QUERY.has(pathname) || BENCH_JOB_LINKS.test(pathname) || CHECKPOINT_RAW_FILE.test(pathname);

/**
 * What every request passes before routing, past the door: the token where one is set, and an origin
 * this server answers to. The path is made canonical once (trailing slashes dropped) and the
 * router is given that same path, so what is checked is what answers.
 */
export function admit(req: Request, opts: GateOptions): Admission {
  // the URL parser resolves dot segments (`/static/../api`, `%2e%2e` too); the router is given its result
  const parsed = new URL(req.url);
  const pathname = canonicalPath(parsed.pathname);
  const path = pathname + parsed.search;
  const origin = classifyOrigin(req.headers.get('origin'), req.headers.get('host'), opts.origins);
  const tokenGiven = opts.token !== null && tokenMatches(req, path, pathname, opts.token);
  const refused = refusal(req, opts, pathname, origin, tokenGiven);
  return { path, pathname, origin, tokenGiven, refused };
}

/** `/codefile/` and `/codefile//` are `/codefile`; `/` stays. */
function canonicalPath(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** The Host and the percent-encoding of the path were checked at the door (http/serve.ts). */
function refusal(req: Request, opts: GateOptions, pathname: string, origin: OriginClass, tokenGiven: boolean): Response | null {
  const preflight = req.method === 'OPTIONS';
  // a preflight carries no credentials by design; when a token exists, a page that has it may ask
  if (origin === 'foreign' && !tokenGiven && !(preflight && opts.token)) {
    return errorResponse(403, `cross-origin request from ${req.headers.get('origin')} refused: the dashboard answers pages of this machine only (loopback origins); list another origin with --cors-origin or SVC_GUI_CORS_ORIGINS, or send the token`);
  }
  if (opts.token && !preflight && !isPublic(pathname) && !tokenGiven) {
    return errorResponse(401, 'missing or wrong token: send Authorization: Bearer <SVC_GUI_TOKEN>');
  }
  return null;
}

function tokenMatches(req: Request, path: string, pathname: string, expected: Buffer): boolean {
  const header = req.headers.get('authorization');
  if (header?.startsWith('Bearer ')) return bearerMatches(header, expected);
  const fromQuery = tokenInQuery(pathname) && path.length > pathname.length ? new URLSearchParams(path.slice(pathname.length + 1)).get('token') : null;
  return fromQuery !== null && bearerMatches(`Bearer ${fromQuery}`, expected);
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
