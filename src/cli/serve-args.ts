import { InputError } from '../core/errors.ts';
import { logFor } from '../core/log.ts';

/** Shared by the commands that run a server in the foreground (viz, memory serve). */
export function portArg(raw: string): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || n > 65535) throw new InputError(`--port must be a whole number from 0 to 65535, got '${raw}'`);
  return n;
}

/** Resolves once SIGINT or SIGTERM has arrived and `stop` has finished; says so on stderr first. */
export function stopOnSignal(command: string, stop: () => Promise<void>): Promise<void> {
  return new Promise<void>((done) => {
    const onSignal = () => {
      logFor(command).info('stopping');
      void stop().then(done);
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
}
