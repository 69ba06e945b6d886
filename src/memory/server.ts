import { timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import type { Server } from 'bun';
import type { Env } from '../core/config/env-vars.ts';
import { UnavailableError } from '../core/errors.ts';
import { homeDir } from '../core/workspace.ts';
import { detail, MAX_BODY_BYTES } from './server-http.ts';
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

  const handle = async (req: Request): Promise<Response> => {
    if (key && !authorized(req, key)) return detail(401, 'missing or wrong API key (Authorization: Bearer <key>)');
    try {
      return await route(store, req);
    } catch (err) {
      process.stderr.write(`svc memory: ${req.method} ${new URL(req.url).pathname}: ${(err as Error)?.stack ?? err}\n`);
      return detail(500, `internal error: ${(err as Error)?.message ?? err}`);
    }
  };

  let server: Server<undefined>;
  try {
    server = Bun.serve({
      hostname: opts.host,
      port: opts.port,
      // readJson refuses larger bodies itself, as JSON; Bun's own cut just above it is a bare 413
      maxRequestBodySize: MAX_BODY_BYTES + 1024 * 1024,
      fetch: handle,
    });
  } catch (err) {
    store.close();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UnavailableError(`port ${opts.port} on ${opts.host} is in use`, 'pick another with --port, or stop the server already there');
    if (code === 'EACCES') throw new UnavailableError(`not allowed to listen on port ${opts.port}`, 'use a port above 1023');
    if (code === 'EADDRNOTAVAIL') throw new UnavailableError(`cannot bind ${opts.host}: no such local address`, 'give an address of this machine with --host');
    throw err;
  }
  const port = server.port ?? opts.port;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  let stopped: Promise<void> | null = null;
  return {
    url: `http://${host}:${port}`,
    port,
    stop: () => {
      stopped ??= server.stop(false).then(() => store.close());
      return stopped;
    },
  };
}

function authorized(req: Request, expected: Buffer): boolean {
  const given = Buffer.from(req.headers.get('authorization') ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Where `svc memory serve` keeps its database unless told otherwise. */
export function defaultMemoryDataDir(env: Env): string {
  return join(homeDir(env), '.svc', 'memory');
}
