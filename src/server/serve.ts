import { timingSafeEqual } from 'node:crypto';
import type { Server } from 'bun';
import { UnavailableError } from '../core/errors.ts';
import { AccessLog } from './access-log.ts';
import { createApp } from './app.ts';
import { allowOrigin, preflight } from './cors.ts';
import type { ServerContext } from './context.ts';
import { errorResponse, MAX_JSON_BODY } from './http.ts';
import { UPLOAD_LIMIT_BYTES, bodyLimitFor } from './limits.ts';
import { STATIC_ROUTES } from './routes/static.ts';

export type Dashboard = { server: Server<undefined>; url: string; stop: () => Promise<void> };

/**
 * Starts the dashboard. In front of the Elysia app sit the checks every request passes: the
 * optional bearer token on /api, the body size limit (answered as JSON, before any parsing), and
 * the access log of the active checkpoint.
 */
export function startDashboard(ctx: ServerContext, opts: { host: string; port: number }): Dashboard {
  const app = createApp(ctx);
  const log = new AccessLog();
  const expected = ctx.token ? Buffer.from(ctx.token) : null;

  const handle = async (req: Request, server: Server<undefined>): Promise<Response> => {
    const started = performance.now();
    const { path, pathname } = pathOf(req.url);
    let res: Response;
    try {
      if (req.method === 'OPTIONS' && pathname.startsWith('/api/')) res = preflight(req);
      else res = guard(req, path, pathname, expected) ?? (await app.handle(req.body === null ? req : await limitBody(req, pathname)));
    } catch (err) {
      res = err instanceof Response ? err : errorResponse(500, `internal error: ${(err as Error)?.message ?? err}`);
    }
    const active = ctx.active;
    if (active) {
      log.record(active, {
        ts: Date.now(),
        method: req.method,
        path: redactToken(path),
        status: res.status,
        duration_ms: Math.round((performance.now() - started) * 10) / 10,
        client: server.requestIP(req)?.address ?? '',
      });
    }
    return allowOrigin(req, res);
  };

  let server: Server<undefined>;
  try {
    server = Bun.serve({
      hostname: opts.host,
      port: opts.port,
      // the per-route limits below answer first, as JSON; this only stops a runaway chunked upload
      maxRequestBodySize: UPLOAD_LIMIT_BYTES + MAX_JSON_BODY,
      // long polls and event streams must not be cut after Bun's default 10 s
      idleTimeout: 0,
      routes: STATIC_ROUTES,
      fetch: handle,
      error: (err) => errorResponse(500, `internal error: ${err.message}`),
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UnavailableError(`port ${opts.port} on ${opts.host} is in use`, 'pick another with --port or SVC_GUI_PORT (0 picks a free one)');
    if (code === 'EACCES') throw new UnavailableError(`not allowed to listen on port ${opts.port}`, 'use a port above 1023');
    if (code === 'EADDRNOTAVAIL') throw new UnavailableError(`cannot bind ${opts.host}: no such local address`, 'give an address of this machine with --host');
    throw err;
  }
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    server,
    url: `http://${host}:${server.port}`,
    stop: async () => {
      await server.stop(true);
      await log.flush();
    },
  };
}

/** The bearer token check, constant-time (preflight requests, which carry no credentials, never get here). */
function guard(req: Request, path: string, pathname: string, expected: Buffer | null): Response | null {
  if (!expected || !pathname.startsWith('/api/')) return null;
  const header = req.headers.get('authorization') ?? '';
  // an event stream opened by a browser cannot send headers; it sends ?token= instead
  const fromQuery = path.length > pathname.length ? new URLSearchParams(path.slice(pathname.length + 1)).get('token') : null;
  const given = Buffer.from(header.startsWith('Bearer ') ? header.slice(7) : (fromQuery ?? ''));
  const ok = given.length === expected.length && timingSafeEqual(given, expected);
  return ok ? null : errorResponse(401, 'missing or wrong token: send Authorization: Bearer <SVC_GUI_TOKEN>');
}

/**
 * Refuses a body over the route's limit with 413 before it is read. A chunked body (no
 * Content-Length) is read up to the limit here, so a JSON route never buffers more than it allows.
 */
async function limitBody(req: Request, pathname: string): Promise<Request> {
  if (req.body === null || req.method === 'GET' || req.method === 'HEAD') return req;
  const limit = bodyLimitFor(pathname);
  const declared = req.headers.get('content-length');
  if (declared !== null) {
    if (Number(declared) > limit) throw tooLarge(limit);
    return req;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of req.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  return new Request(req.url, { method: req.method, headers: req.headers, body: Buffer.concat(chunks) });
}

/** Path and query of a request URL as Bun gives it (`http://host/path?query`), without a URL object per request. */
function pathOf(url: string): { path: string; pathname: string } {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  const path = start < 0 ? '/' : url.slice(start);
  const q = path.indexOf('?');
  return { path, pathname: q < 0 ? path : path.slice(0, q) };
}

/** The token in a query string is a secret: it never reaches the access log. */
function redactToken(path: string): string {
  return path.includes('token=') ? path.replace(/([?&]token=)[^&]*/g, '$1REDACTED') : path;
}

function tooLarge(limit: number): Response {
  return errorResponse(413, `request body too large: the limit for this endpoint is ${Math.round(limit / 1024 / 1024)} MB`);
}
