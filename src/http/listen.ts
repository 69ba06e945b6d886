import type { Server, ServeOptions } from 'bun';
import { UnavailableError } from '../core/errors.ts';

/**
 * Bun.serve on `host:port`, for svc's HTTP servers. Bodies are never cut by Bun (its cut is a
 * bare 413): each server refuses an over-size body itself, as JSON, reading no more than its limit.
 * A port that cannot be had is one line naming `portHint`.
 */
export function listen(options: Omit<ServeOptions, 'hostname' | 'port' | 'maxRequestBodySize'>, host: string, port: number, portHint: string): { server: Server<undefined>; url: string } {
  let server: Server<undefined>;
  try {
    server = Bun.serve({ ...options, hostname: host, port, maxRequestBodySize: 2 ** 40 } as ServeOptions) as Server<undefined>;
  } catch (err) {
    throw bindError(err, host, port, portHint);
  }
  const shown = host.includes(':') ? `[${host}]` : host;
  return { server, url: `http://${shown}:${server.port ?? port}` };
}

export type Listening = { url: string; port: number; stop: () => Promise<void> };

/**
 * listen() for a server that owns a resource (a database): `close` runs when listening fails and
 * once the server has stopped; stop() may be called any number of times.
 */
export function listenOwning(fetch: (req: Request) => Response | Promise<Response>, host: string, port: number, close: () => void): Listening {
  let listening: ReturnType<typeof listen>;
  try {
    listening = listen({ fetch }, host, port, 'pick another with --port, or stop the server already there');
  } catch (err) {
    close();
    throw err;
  }
  const { server, url } = listening;
  let stopped: Promise<void> | null = null;
  return {
    url,
    port: server.port ?? port,
    stop: () => {
      stopped ??= server.stop(false).then(close);
      return stopped;
    },
  };
}

/** Why Bun.serve could not listen, as one line the user can act on; other errors pass through. */
function bindError(err: unknown, host: string, port: number, portHint: string): unknown {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'EADDRINUSE') return new UnavailableError(`port ${port} on ${host} is in use`, portHint);
  if (code === 'EACCES') return new UnavailableError(`not allowed to listen on port ${port}`, 'use a port above 1023');
  if (code === 'EADDRNOTAVAIL') return new UnavailableError(`cannot bind ${host}: no such local address`, 'give an address of this machine with --host');
  return err;
}
