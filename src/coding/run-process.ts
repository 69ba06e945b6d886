import { basename } from 'node:path';
import { definedEnv } from '../core/config/environment.ts';
import { oneLine, SvcError, UnavailableError } from '../core/errors.ts';
import { signalGroup, terminateGroup } from '../core/process-group.ts';
import { CappedText } from './capped-text.ts';

/** What a finished command did; the field names are those tool results carry. */
export type ProcessResult = {
  /** the exit status, or 128 + the signal number when a signal ended it (as shells report it) */
  exit_code: number;
  /** the signal that ended it, e.g. SIGTERM after a timeout */
  signal: string | null;
  stdout: string;
  stderr: string;
  timed_out: boolean;
  /** stdout or stderr was longer than the limit and its middle was cut */
  truncated: boolean;
  elapsed_s: number;
};

export type ProcessOptions = {
  /** program and arguments; no shell is involved unless the program is one */
  cmd: string[];
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  timeoutS: number;
  /** aborting it stops the command as a timeout does, and the call then fails */
  signal?: AbortSignal;
  /** characters kept of each of stdout and stderr */
  maxChars?: number;
  /** seconds between SIGTERM and SIGKILL when stopping */
  killGraceS?: number;
};

export const OUTPUT_MAX_CHARS = 50_000;
export const KILL_GRACE_S = 5;
/** Once the command has exited, how long output of processes it left in the background is still read. */
const DRAIN_MS = 500;

/**
 * Runs a command in its own process group with stdin closed and stdout and stderr captured (never
 * inherited: a skill server's stdout carries protocol frames). A timeout or an abort stops the
 * whole group, children included: SIGTERM, then SIGKILL after a grace period. Processes the command
 * deliberately leaves running after it exits are not waited for.
 */
export async function runProcess(opts: ProcessOptions): Promise<ProcessResult> {
  const program = basename(opts.cmd[0] ?? '');
  if (opts.signal?.aborted) throw cancelled(program);
  const started = performance.now();
  const proc = spawn(opts, program);
  const group = proc.pid;
  runningGroups.add(group);
  killRunningGroupsOnExit();
  const maxChars = opts.maxChars ?? OUTPUT_MAX_CHARS;
  const stdout = new CappedText(maxChars);
  const stderr = new CappedText(maxChars);
  let stopReading = () => {};
  const readingStopped = new Promise<void>((resolve) => (stopReading = resolve));
  const reading = Promise.all([collect(proc.stdout, stdout, readingStopped), collect(proc.stderr, stderr, readingStopped)]);

  let timedOut = false;
  let aborted = false;
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= terminateGroup(proc.pid, (opts.killGraceS ?? KILL_GRACE_S) * 1000));
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, opts.timeoutS * 1000);
  const onAbort = () => {
    aborted = true;
    stop();
  };
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  let exitCode: number;
  try {
    exitCode = await proc.exited;
    clearTimeout(timer);
    // a background child may hold the pipes open for as long as it runs
    const drain = setTimeout(stopReading, DRAIN_MS);
    await reading;
    clearTimeout(drain);
    if (stopping) await stopping;
  } catch (err) {
    await stop();
    throw err;
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
    runningGroups.delete(group);
  }
  if (aborted) throw cancelled(program);
  return {
    exit_code: exitCode,
    signal: proc.signalCode === null ? null : String(proc.signalCode),
    stdout: stdout.text(),
    stderr: stderr.text(),
    timed_out: timedOut,
    truncated: stdout.truncated || stderr.truncated,
    elapsed_s: Math.round(performance.now() - started) / 1000,
  };
}

function spawn(opts: ProcessOptions, program: string) {
  try {
    return Bun.spawn(opts.cmd, {
      cwd: opts.cwd,
      env: definedEnv(opts.env),
      stdin: 'ignore',
      stdout: 'pipe',
      stderr: 'pipe',
      // its own process group, so that stopping it stops everything it started
      detached: true,
    });
  } catch (err) {
    throw new UnavailableError(`cannot start ${program}: ${oneLine(err)}`);
  }
}

/** Process groups of commands still running. */
const runningGroups = new Set<number>();
let exitHooked = false;

/**
 * A command still running when this process exits (a skill server whose client went away, with a
 * command that ignores SIGTERM or has not finished stopping) is killed with its group rather than
 * left behind without anyone to stop it.
 */
function killRunningGroupsOnExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', () => {
    for (const group of runningGroups) signalGroup(group, 'SIGKILL');
  });
}

const STOP = Symbol('stop');

async function collect(stream: ReadableStream<Uint8Array>, into: CappedText, stop: Promise<void>): Promise<void> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const stopped = stop.then((): typeof STOP => STOP);
  for (;;) {
    const next = await Promise.race([reader.read(), stopped]);
    if (next === STOP) {
      await reader.cancel().catch(() => {});
      break;
    }
    if (next.done) break;
    into.push(decoder.decode(next.value, { stream: true }));
  }
  into.push(decoder.decode());
}

function cancelled(program: string): SvcError {
  return new SvcError(`${program} was stopped: the call was cancelled`);
}
