import { UnavailableError } from '../core/errors.ts';

/** Why Bun.serve could not listen, as one line the user can act on; other errors pass through. */
export function bindError(err: unknown, host: string, port: number, portHint: string): unknown {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'EADDRINUSE') return new UnavailableError(`port ${port} on ${host} is in use`, portHint);
  if (code === 'EACCES') return new UnavailableError(`not allowed to listen on port ${port}`, 'use a port above 1023');
  if (code === 'EADDRNOTAVAIL') return new UnavailableError(`cannot bind ${host}: no such local address`, 'give an address of this machine with --host');
  return err;
}
