import { timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import type { Env } from '../core/config/env-vars.ts';
import { homeDir, isSystemDir, projectRoot } from '../core/workspace.ts';
import { listenOwning } from '../http/listen.ts';
import { isLoopback, namesLoopback } from '../http/loopback.ts';
import { detail } from './server-http.ts';
import { route } from './server-routes.ts';
import { MemoryStore } from './store.ts';

export type MemoryServerOptions = {
  port: number;
  host: string;
  dataDir: string;
  /** When set, every request must carry `Authorization: Bearer <apiKey>`. */
  apiKey?: string | null;
};

export type MemoryServer = { url: string; port: number; stop: () => Promise<void> };

/** Starts the memory server on an open store; `stop` lets requests in flight finish, then closes the database. */
export function startMemoryServer(opts: MemoryServerOptions): MemoryServer {
  const store = MemoryStore.open(opts.dataDir);
  const key = opts.apiKey ? Buffer.from(`Bearer ${opts.apiKey}`) : null;
  // bound to loopback, it answers only to loopback names: a web page whose own name was rebound to
  // 127.0.0.1 would otherwise read and rewrite the memory runs act on. Any port, for SSH tunnels.
  const loopbackOnly = isLoopback(opts.host);

  const handle = async (req: Request): Promise<Response> => {
    if (loopbackOnly && !namesLoopback(req.headers.get('host'))) return detail(421, 'this server answers only to 127.0.0.1, localhost and [::1]');
    if (key && !authorized(req, key)) return detail(401, 'missing or wrong API key (Authorization: Bearer <key>)');
    try {
      return await route(store, req);
    } catch (err) {
      process.stderr.write(`svc memory: ${req.method} ${new URL(req.url).pathname}: ${(err as Error)?.stack ?? err}\n`);
      return detail(500, `internal error: ${(err as Error)?.message ?? err}`);
    }
  };

  // readJson refuses bodies over MAX_BODY_BYTES itself, as JSON
  return listenOwning(handle, opts.host, opts.port, () => store.close());
}

function authorized(req: Request, expected: Buffer): boolean {
  const given = Buffer.from(req.headers.get('authorization') ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Where `svc memory serve` keeps its database unless told otherwise: `~/.svc/memory`, shared by
 * the user's projects; for a user whose home is `/` or a system directory (a service account),
 * the project's `.svc/memory` instead.
 */
export function defaultMemoryDataDir(env: Env, cwd = process.cwd()): string {
  const home = homeDir(env);
  return join(isSystemDir(home) ? projectRoot(env, cwd) : home, '.svc', 'memory');
}
