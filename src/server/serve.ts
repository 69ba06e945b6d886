import type { Server } from 'bun';
import { AccessLog } from './access-log.ts';
import { listen } from '../http/listen.ts';
import { createApp } from './app.ts';
import { allowOrigin, preflight } from './cors.ts';
import type { ServerContext } from './context.ts';
import { isLoopback, loopbackHosts } from '../http/loopback.ts';
import { type Admission, admit, redactToken } from './gate.ts';
import { errorResponse } from '../http/response.ts';
import { bodyLimitFor } from './limits.ts';
import { STATIC_ROUTES } from './routes/static.ts';

export type Dashboard = { server: Server<undefined>; url: string; stop: () => Promise<void> };

/**
 * Starts the dashboard. In front of the Elysia app sit the checks every request passes (gate.ts:
 * Host, path, origin, token), CORS, the body size limit (answered as JSON, before any parsing),
 * and the access log of the active checkpoint.
 */
export function startDashboard(ctx: ServerContext, opts: { host: string; port: number; accessLogMaxBytes?: number }): Dashboard {
  const app = createApp(ctx);
  const log = new AccessLog(opts.accessLogMaxBytes ?? 100 * 1024 * 1024);
  const token = ctx.token ? Buffer.from(ctx.token) : null;
  let hosts: Set<string> | null = null;

  const handle = async (req: Request, server: Server<undefined>): Promise<Response> => {
    const started = performance.now();
    const admission = admit(req, { hosts, token, origins: ctx.corsOrigins });
    // a request the gate refused is not logged: a page or client knocking must not grow the log
    if (admission.refused) return allowOrigin(req, admission.refused, admission);
    let res: Response;
    try {
      if (req.method === 'OPTIONS') res = preflight(req);
      else res = await app.handle(await routed(req, admission, ctx));
    } catch (err) {
      res = err instanceof Response ? err : errorResponse(500, `internal error: ${(err as Error)?.message ?? err}`);
    }
    const active = ctx.active;
    if (active) {
      log.record(active, {
        ts: Date.now(),
        method: req.method,
        path: redactToken(admission.path),
        status: res.status,
        duration_ms: Math.round((performance.now() - started) * 10) / 10,
        client: server.requestIP(req)?.address ?? '',
      });
    }
    return allowOrigin(req, res, admission);
  };

  const { server, url } = listen(
    {
      // Bun's longest: a compile may run 180 s before it answers; event streams send a heartbeat
      // every 15 s. Still, a connection that sends nothing is eventually closed.
      idleTimeout: 255,
      routes: STATIC_ROUTES,
      fetch: handle,
      error: (err) => errorResponse(500, `internal error: ${err.message}`),
    },
    opts.host,
    opts.port,
    'pick another with --port or SVC_GUI_PORT (0 picks a free one)',
  );
  if (isLoopback(opts.host)) hosts = loopbackHosts(server.port ?? opts.port);
  return {
    server,
    url,
    stop: async () => {
      await server.stop(true);
      log.flush();
    },
  };
}

/**
 * The request the router is given: at the canonical path the gate decided on, with its body
 * limited, and marked when a foreign page sent it (routing-guard.ts).
 */
async function routed(req: Request, admission: Admission, ctx: ServerContext): Promise<Request> {
  const url = new URL(req.url);
  let out = url.pathname + url.search === admission.path ? req : new Request(new URL(admission.path, url.origin).href, req);
  if (out.body !== null) out = await limitBody(out, admission.pathname);
  if (admission.origin === 'foreign') ctx.routing.markForeign(out, req.headers.get('origin') ?? 'null');
  return out;
}

/**
 * Refuses a body over the route's limit with 413 before it is read. A chunked body (no
 * Content-Length) is read up to the limit here, so a JSON route never buffers more than it allows.
 */
async function limitBody(req: Request, pathname: string): Promise<Request> {
  if (req.method === 'GET' || req.method === 'HEAD') return req;
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

function tooLarge(limit: number): Response {
  return errorResponse(413, `request body too large: the limit for this endpoint is ${Math.round(limit / 1024 / 1024)} MB`);
}
