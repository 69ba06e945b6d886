import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { UnavailableError } from '../core/errors.ts';

/** What a launcher started: `svc run` for a new run or sub-experiment, `svc resume` for a stage. */
export type RunKind = 'launch' | 'resume' | 'paper' | 'sub-experiment';

/** A run process this process started, and how it ended once it has. */
export type RunChild = {
  kind: RunKind;
  pid: number;
  /** the process group the run and everything it starts belong to (it leads it: pgid = pid) */
  pgid: number;
  checkpoint: string;
  logFile: string;
  startedAt: string;
  /** null while it runs; a signal's death is 128 + the signal number, as shells report it */
  exitCode: number | null;
  signal: string | null;
  running: boolean;
  /** settles when the process has ended and exitCode is set */
  exited: Promise<void>;
};

export type SpawnRunOptions = {
  kind: RunKind;
  /** the program and its first arguments, e.g. the svc binary; `args` follow */
  program: string[];
  args: string[];
  checkpoint: string;
  /** the child's whole environment */
  env: Record<string, string>;
  cwd: string;
};

/** `svc_run_<epoch>.log` in the checkpoint: where a launched run's output goes (the dashboard's log view reads it). */
export function runLogName(now = new Date()): string {
  return `svc_run_${Math.floor(now.getTime() / 1000)}.log`;
}

/**
 * Starts a run detached in its own process group (so stop can signal it and every process it
 * started, and so it outlives the launcher), stdout and stderr appended to the run log. Choices
 * go in `env`; the command line is only the program, the subcommand and the checkpoint path.
 */
export async function spawnRun(opts: SpawnRunOptions): Promise<RunChild> {
  const [command, ...first] = opts.program;
  if (!command) throw new UnavailableError('no program to start the run with');
  const logFile = join(opts.checkpoint, runLogName());
  const fd = openSync(logFile, 'a', 0o644);
  let proc: ChildProcess;
  try {
    proc = spawn(command, [...first, ...opts.args], { cwd: opts.cwd, env: opts.env, detached: true, stdio: ['ignore', fd, fd] });
  } finally {
    closeSync(fd);
  }
  const pid = await started(proc, command);
  const child: RunChild = {
    kind: opts.kind,
    pid,
    pgid: pid,
    checkpoint: opts.checkpoint,
    logFile,
    startedAt: new Date().toISOString(),
    exitCode: null,
    signal: null,
    running: true,
    exited: Promise.resolve(),
  };
  child.exited = new Promise<void>((resolve) => {
    proc.once('exit', (code, signal) => {
      child.running = false;
      child.signal = signal;
      child.exitCode = code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : null);
      resolve();
    });
  });
  // the launcher may end before the run: nothing here keeps it alive
  proc.unref();
  return child;
}

/** The child's PID once it has started; a program that cannot be started is one clear error. */
function started(proc: ChildProcess, command: string): Promise<number> {
  return new Promise((resolve, reject) => {
    proc.once('error', (err) => reject(new UnavailableError(`cannot start ${command}: ${err.message}`, 'check that the svc binary is still where it was started from')));
    proc.once('spawn', () => (proc.pid ? resolve(proc.pid) : reject(new UnavailableError(`cannot start ${command}: no process id`))));
  });
}
