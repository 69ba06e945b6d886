/**
 * A reproduction's process on this machine (local, or the client of a container): its output goes
 * straight to reproduce.log through the file descriptor it is given, never through this process's
 * memory, since a reproduction may print for hours. It runs in its own process group, so a timeout
 * stops everything it started.
 */
import { closeSync, openSync } from 'node:fs';
import type { Env } from '../core/config/env-vars.ts';
import { definedEnv } from '../core/config/environment.ts';
import { oneLine, UnavailableError } from '../core/errors.ts';
import { terminateGroup } from '../core/process-group.ts';

/** Milliseconds between SIGTERM and SIGKILL when a reproduction is stopped. */
export const STOP_GRACE_MS = 2000;

export type LogProcess = {
  argv: string[];
  cwd: string;
  env: Env;
  logPath: string;
  /** ms; 0: no limit */
  timeoutMs: number;
  signal?: AbortSignal;
  /** run first when the time is up (docker kill: the container lives in its daemon, not in its client) */
  onTimeout?: () => Promise<void>;
};

export type ProcessOutcome = { exitCode: number | null; timedOut: boolean };

export async function runToLog(p: LogProcess): Promise<ProcessOutcome> {
  const fd = openSync(p.logPath, 'w');
  let proc: ReturnType<typeof Bun.spawn>;
  try {
    proc = Bun.spawn(p.argv, { cwd: p.cwd, env: definedEnv(p.env), stdin: 'ignore', stdout: fd, stderr: fd, detached: true });
  } catch (err) {
    throw new UnavailableError(`cannot start ${p.argv[0]}: ${oneLine(err)}`);
  } finally {
    // the child holds its own copy of the descriptor
    closeSync(fd);
  }
  let timedOut = false;
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await p.onTimeout?.().catch(() => {});
      await terminateGroup(proc.pid, STOP_GRACE_MS);
    })();
  };
  const timer = p.timeoutMs > 0 ? setTimeout(() => ((timedOut = true), stop()), p.timeoutMs) : undefined;
  const onAbort = () => stop();
  p.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const code = await proc.exited;
    await stopping;
    return { exitCode: proc.signalCode === null ? code : null, timedOut };
  } finally {
    clearTimeout(timer);
    p.signal?.removeEventListener('abort', onAbort);
  }
}
