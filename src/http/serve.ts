import { timingSafeEqual } from 'node:crypto';
import type { BunRequest, Server, ServeOptions } from 'bun';
import { SvcError, UnavailableError } from '../core/errors.ts';
import { logFor } from '../core/log.ts';
import { isLoopback, namesLoopback } from './loopback.ts';
import { errorResponse, messageOf, statusOf } from './response.ts';

/** What answers a request: an Elysia app (its `handle`), or the dashboard's door in front of one. */
export type Handler = (req: Request, server: Server<undefined>) => Promise<Response> | Response;

export type ServeHttpOptions = {
  host: string;
  port: number;
  /** what to do when the port is taken: `pick another with --port` */
  portHint: string;
  /** names the server in the log line of an unexpected error */
  name: string;
  /** the field of an error answer, as the app's (`httpApp`) */
  errorKey?: 'error' | 'detail';
  /** when set, every request carries `Authorization: Bearer <token>` or is refused (401) */
  token?: string | null;
  /** runs when listening fails and once the server has stopped (a database to close, a lock to give up) */
  close?: () => void;
  /** seconds a connection may send nothing; Bun's default otherwise */
  idleTimeout?: number;
  /** files Bun answers itself, before any of this (the dashboard's page) */
  routes?: ServeOptions['routes'];
};

export type Listening = { server: Server<undefined>; url: string; port: number; stop: (how?: { closeConnections?: boolean }) => Promise<void> };

/**
 * Every svc server on `host:port`, behind the same door: a Host the router reads as we do, on
 * loopback a loopback name only (a page whose name was rebound to 127.0.0.1 gets nothing; any
 * port, so SSH tunnels work), the token where one is set, and then `handle`. Bodies are never
 * cut by Bun (its cut is a bare 413): each route refuses an over-size body itself, as JSON
 * (httpApp). A port that cannot be had is one line naming `portHint`. stop() lets requests in
 * flight finish (or closes every connection), may be called any number of times, and runs `close` once.
 */
export function serveHttp(handle: Handler, opts: ServeHttpOptions): Listening {
  const answer = (status: number, message: string) => (opts.errorKey === 'detail' ? Response.json({ detail: message }, { status }) : errorResponse(status, message));
  const loopbackOnly = isLoopback(opts.host);
  const token = opts.token ? Buffer.from(opts.token) : null;
  const fetch = async (req: Request, server: Server<undefined>): Promise<Response> => {
    const refused = refusal(req, loopbackOnly, token);
    if (refused) return answer(refused.status, refused.message);
    try {
      return await handle(req, server);
    } catch (err) {
      if (!(err instanceof SvcError)) logFor(opts.name).error(`${req.method} ${new URL(req.url).pathname}: ${(err as Error)?.stack ?? err}`);
      return answer(statusOf(err), messageOf(err));
    }
  };
  let server: Server<undefined>;
  try {
    server = Bun.serve({
      hostname: opts.host,
      port: opts.port,
      maxRequestBodySize: 2 ** 40,
      ...(opts.idleTimeout === undefined ? {} : { idleTimeout: opts.idleTimeout }),
      ...(opts.routes ? { routes: opts.routes } : {}),
      fetch,
      error: (err: Error) => answer(500, `internal error: ${err.message}`),
    } as ServeOptions) as Server<undefined>;
  } catch (err) {
    opts.close?.();
    throw bindError(err, opts.host, opts.port, opts.portHint);
  }
  const shown = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  let stopped: Promise<void> | null = null;
  return {
    server,
    url: `http://${shown}:${server.port ?? opts.port}`,
    port: server.port ?? opts.port,
    stop: (how) => {
      stopped ??= server.stop(how?.closeConnections === true).then(() => opts.close?.());
      return stopped;
    },
  };
}

function refusal(req: Request | BunRequest, loopbackOnly: boolean, token: Buffer | null): { status: number; message: string } | null {
  // the router takes the path from the 11th character on; a shorter host would make it route
  // another path than the one the request names
  if (loopbackOnly && !namesLoopback(req.headers.get('host'))) return { status: 421, message: 'this server answers only to 127.0.0.1, localhost and [::1]' };
  const url = req.url;
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start < 11 || url.indexOf('/', 11) !== start) return { status: 400, message: 'bad Host header' };
  try {
    decodeURIComponent(url.slice(start, (url.indexOf('?', start) + 1 || url.length + 1) - 1));
  } catch {
    return { status: 400, message: 'malformed percent-encoding in the path' };
  }
  if (token && !bearerMatches(req.headers.get('authorization'), token)) return { status: 401, message: 'missing or wrong token: send Authorization: Bearer <token>' };
  return null;
}

/** Whether an Authorization header carries the bearer token, compared in constant time. */
export function bearerMatches(header: string | null, token: Buffer): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  return given.length === token.length && timingSafeEqual(given, token);
}

/** Why Bun.serve could not listen, as one line the user can act on; other errors pass through. */
function bindError(err: unknown, host: string, port: number, portHint: string): unknown {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'EADDRINUSE') return new UnavailableError(`port ${port} on ${host} is in use`, portHint);
  if (code === 'EACCES') return new UnavailableError(`not allowed to listen on port ${port}`, 'use a port above 1023');
  if (code === 'EADDRNOTAVAIL') return new UnavailableError(`cannot bind ${host}: no such local address`, 'give an address of this machine with --host');
  return err;
}
