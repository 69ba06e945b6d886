import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { oneLine, SvcError } from '../core/errors.ts';
import type { BatchExecutor } from '../sandbox/batch-executor.ts';
import type { JobStatus } from '../sandbox/executor.ts';
import { lsfExecutor } from '../sandbox/lsf.ts';
import { containerName, type NodeExec, nodeCommand, nodeJobName, removeContainerCommand } from '../sandbox/node-command.ts';
import { pbsExecutor } from '../sandbox/pbs.ts';
import { systemRunner } from '../sandbox/slurm-runner.ts';
import { CappedText } from './capped-text.ts';
import { KILL_GRACE_S, OUTPUT_MAX_CHARS, type ProcessResult, runProcess } from './run-process.ts';

type Env = Readonly<Record<string, string | undefined>>;
type CommandOptions = { cwd: string; env: Env; timeoutS: number; signal?: AbortSignal; exec?: NodeExec };

/**
 * A node's command where its run decided (NodeExec): on a PBS or LSF cluster a job of its own,
 * else here, in the node's container or as a step of its Slurm allocation.
 */
export async function runNodeCommand(argv: string[], opts: CommandOptions): Promise<ProcessResult> {
  const batch = opts.exec?.batch;
  if (batch) return runJob(executorFor(batch.kind, opts.env), nodeCommand(argv, opts.cwd, opts.exec), { ...opts, ...(batch.cpus ? { cpus: batch.cpus } : {}) });
  const name = containerName(opts.exec);
  const run = runProcess({ cmd: nodeCommand(argv, opts.cwd, opts.exec, name ?? undefined), cwd: opts.cwd, env: opts.env, timeoutS: opts.timeoutS, ...(opts.signal ? { signal: opts.signal } : {}) });
  if (name === null) return run;
  // a stopped command's container is removed by name: its killed client would leave it running
  const remove = () => removeContainer(removeContainerCommand(opts.exec, opts.cwd, name), opts);
  try {
    const result = await run;
    if (result.timed_out) await remove();
    return result;
  } catch (err) {
    await remove();
    throw err;
  }
}

/** Longest wait for a container's removal. */
const REMOVE_TIMEOUT_S = 30;

async function removeContainer(cmd: string[] | null, opts: CommandOptions): Promise<void> {
  if (cmd) await runProcess({ cmd, cwd: opts.cwd, env: opts.env, timeoutS: REMOVE_TIMEOUT_S }).catch(() => null);
}

/** Wall time a job gets beyond its command's timeout: the scheduler ends it should its deletion fail. */
const WALL_SLACK_S = 60;
/** How long a deleted job may take to end and have its output staged back (PBS waits 10 s between SIGTERM and SIGKILL). */
const STOP_WAIT_MS = (KILL_GRACE_S + 15) * 1000;
/** How shells report a command ended by SIGTERM, which is what deleting a running job sends. */
const SIGTERM_EXIT = 128 + 15;

/**
 * The command as one batch job, with the work directory (on a filesystem the compute nodes share)
 * as its working directory and this environment: submitted, waited for with the executor's shared
 * poll, deleted when its timeout passes or when the call is given up. The timeout counts from the
 * submission, queue time included: the caller waits only a minute beyond it. Answered as
 * runProcess answers: stdout and stderr are the files the scheduler wrote, capped the same way.
 */
async function runJob(exec: BatchExecutor, cmd: string[], opts: CommandOptions & { cpus?: number }): Promise<ProcessResult> {
  const program = basename(cmd[0] ?? '');
  if (opts.signal?.aborted) throw cancelled(program, null);
  const started = performance.now();
  const name = nodeJobName(opts.env.SVC_CURRENT_NODE_ID);
  const { id } = await exec.submit({ command: cmd, workDir: opts.cwd, name, wallTimeS: opts.timeoutS + WALL_SLACK_S, env: jobEnv(opts.env), ...(opts.cpus ? { cpus: opts.cpus } : {}) });
  const { status, timedOut } = await ended(exec, id, program, opts.signal, opts.timeoutS * 1000 - (performance.now() - started));
  const paths = exec.logPaths(id);
  const [stdout, stderr] = await Promise.all([readCapped(paths.stdoutPath), readCapped(paths.stderrPath)]);
  const exitCode = status?.exitCode ?? null;
  if (exitCode === null && !timedOut) {
    const why = status ? [status.state, status.reason].filter(Boolean).join(', ') : 'no state';
    throw new SvcError(`${exec.kind} job ${id} (${program}) ended without an exit code (${why}); its stderr ends: ${stderr.text().trim().split('\n').at(-1) || 'nothing'}`);
  }
  return {
    exit_code: exitCode ?? SIGTERM_EXIT,
    signal: exitCode === null ? 'SIGTERM' : null,
    stdout: stdout.text(),
    stderr: stderr.text(),
    timed_out: timedOut,
    truncated: stdout.truncated || stderr.truncated,
    elapsed_s: Math.round(performance.now() - started) / 1000,
  };
}

/** The job's end; past its time or when the call is given up, it is deleted first. */
async function ended(exec: BatchExecutor, id: string, program: string, signal: AbortSignal | undefined, timeoutMs: number): Promise<{ status: JobStatus | null; timedOut: boolean }> {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), Math.max(0, timeoutMs));
  const onAbort = () => stop.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  // given up while it was being submitted: the listener above will not hear it
  if (signal?.aborted) stop.abort();
  try {
    return { status: await exec.wait(id, { signal: stop.signal }), timedOut: false };
  } catch (err) {
    const refused = await exec.cancel(id).then(
      () => null,
      (e: unknown) => e,
    );
    if (signal?.aborted) throw cancelled(program, refused);
    // the scheduler stopped answering: the deletion was tried, the wait's failure is the answer
    if (!stop.signal.aborted) throw err;
    // what it printed before it was stopped is staged back when it ends
    const status = await exec.wait(id, { signal: AbortSignal.timeout(STOP_WAIT_MS) }).catch(() => null);
    if (status === null && refused) throw new SvcError(`${exec.kind} job ${id} (${program}) passed its timeout and could not be deleted: ${oneLine(refused)}; its wall time will end it`);
    return { status, timedOut: true };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

async function readCapped(path: string): Promise<CappedText> {
  const text = new CappedText(OUTPUT_MAX_CHARS);
  const file = Bun.file(path);
  if (!(await file.exists())) return text;
  const decoder = new TextDecoder();
  for await (const chunk of file.stream()) text.push(decoder.decode(chunk, { stream: true }));
  text.push(decoder.decode());
  return text;
}

/**
 * What the job's shell exports: the environment a command here would get, less what describes
 * the machine or job a shell runs in, which the compute node sets for itself (an exported
 * PBS_JOBID or LSB_JOBID would also send the job's exit code to another job's file).
 */
function jobEnv(env: Env): Record<string, string> {
  const own = /^(HOSTNAME|PWD|OLDPWD|SHLVL|TMPDIR|_|PBS_\w*|LSB_\w*)$/;
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && /^[A-Za-z_]\w*$/.test(e[0]) && !own.test(e[0])));
}

/** One executor per scheduler for the process, so every job waited for shares its status queries. */
const executors = new Map<string, BatchExecutor>();

function executorFor(kind: 'pbs' | 'lsf', env: Env): BatchExecutor {
  const known = executors.get(kind);
  if (known) return known;
  // the index from job id to work directory serves this process's waits only
  const stateDir = mkdtempSync(join(tmpdir(), `svc-${kind}-`));
  process.once('exit', () => rmSync(stateDir, { recursive: true, force: true }));
  const opts = { stateDir, runner: systemRunner(env, kind === 'pbs' ? 'PBS' : 'LSF') };
  const made = kind === 'pbs' ? pbsExecutor(opts) : lsfExecutor(opts);
  executors.set(kind, made);
  return made;
}

function cancelled(program: string, refused: unknown): SvcError {
  return new SvcError(`${program} was stopped: the call was cancelled${refused ? `; deleting its job failed: ${oneLine(refused)}` : ''}`);
}
