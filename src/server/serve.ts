import type { Server } from 'bun';
import { allowOrigin, preflight } from '../http/cors.ts';
import { serveHttp } from '../http/serve.ts';
import { AccessLog } from './access-log.ts';
import { sweepStagedUploads } from './staging-sweep.ts';
import { createApp } from './app.ts';
import type { ServerContext } from './context.ts';
import { type Admission, admit, redactToken } from './gate.ts';
import { UI_ROUTES } from './ui-page.ts';

export type Dashboard = { server: Server<undefined>; url: string; stop: () => Promise<void> };

/**
 * Starts the dashboard: the Elysia app behind svc's door (serveHttp: Host, listen, stop), then the
 * dashboard's own checks (gate.ts: path, origin, token), CORS for the pages it admits, and the
 * access log of the active checkpoint.
 */
export function startDashboard(ctx: ServerContext, opts: { host: string; port: number; accessLogMaxBytes?: number }): Dashboard {
  const app = createApp(ctx);
  const log = new AccessLog(opts.accessLogMaxBytes ?? 100 * 1024 * 1024);
  const token = ctx.token ? Buffer.from(ctx.token) : null;

  const handle = async (req: Request, server: Server<undefined>): Promise<Response> => {
    const started = performance.now();
    const admission = admit(req, { token, origins: ctx.corsOrigins });
    const readable = admission.origin === 'trusted' || (admission.origin === 'foreign' && admission.tokenGiven);
    // a request the gate refused is not logged: a page or client knocking must not grow the log
    if (admission.refused) return allowOrigin(req, admission.refused, readable);
    const res = req.method === 'OPTIONS' ? preflight(req) : await app.handle(routed(req, admission, ctx));
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
    return allowOrigin(req, res, readable);
  };

  const listening = serveHttp(handle, {
    host: opts.host,
    port: opts.port,
    portHint: 'pick another with --port or SVC_GUI_PORT (0 picks a free one)',
    name: 'svc viz',
    // Bun's longest: a compile may run 180 s before it answers; event streams send a heartbeat
    // every 15 s. Still, a connection that sends nothing is eventually closed.
    idleTimeout: 255,
    routes: UI_ROUTES,
    close: () => log.flush(),
  });
  ctx.resumeBenchJobs();
  sweepStagedUploads(ctx.workspaceRoot);
  // event streams never end by themselves: stopping closes them (a job's stream ends first, with its job)
  const stop = async () => {
    await ctx.stopBenchJobs();
    await listening.stop({ closeConnections: true });
  };
  return { server: listening.server, url: listening.url, stop };
}

/** The request the router is given: at the canonical path the gate decided on, and marked when a foreign page sent it (routing-guard.ts). */
function routed(req: Request, admission: Admission, ctx: ServerContext): Request {
  const url = new URL(req.url);
  const out = url.pathname + url.search === admission.path ? req : new Request(new URL(admission.path, url.origin).href, req);
  if (admission.origin === 'foreign') ctx.routing.markForeign(out, req.headers.get('origin') ?? 'null');
  return out;
}
