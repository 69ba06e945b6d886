/**
 * Jobs on a Slurm, PBS or LSF cluster, driven through a small description of the scheduler's CLI:
 * how to write the batch script, submit it, ask for the state of ALL our jobs in one query, and
 * cancel. Waits share one poll loop; the exit file decides COMPLETED against FAILED. A cancel
 * leaves a marker next to the job's record, so any process reading the job reports CANCELLED.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../core/atomic.ts';
import { SvcError } from '../core/errors.ts';
import type { Executor, JobSpec, JobStatus, JobRef, WaitOptions } from './executor.ts';
import { isFinished } from './executor.ts';
import { JobIndex, jobsDir, readExitCode, readLogs } from './job-state.ts';
import type { CommandRunner } from './slurm-runner.ts';
import type { BatchPaths } from './slurm-script.ts';
import type { SchedulerState } from './slurm-state.ts';
import { SlurmWaiters } from './slurm-wait.ts';

/** What one scheduler's CLI looks like to the batch executor. */
export interface SchedulerCli {
  kind: 'slurm' | 'pbs' | 'lsf';
  /** The extension the job's script is kept under; the kind when not given. */
  ext?: string;
  script(spec: JobSpec, paths: BatchPaths): string;
  /** argv, and whether the script goes on stdin (`bsub < script`) instead of as an argument. */
  submit(scriptPath: string, spec: JobSpec): { argv: string[]; stdin: boolean };
  /** The job id from a successful submit's stdout, or null. */
  parseSubmit(stdout: string): string | null;
  /** States of the listed jobs; `cancelled` holds the ids we cancelled. Throws on a failed query. */
  query(ids: string[], run: CommandRunner, cancelled: Set<string>): Promise<Map<string, SchedulerState>>;
  cancelArgv(id: string): string[];
  logPaths(spec: JobSpec, logDir: string, id: string): { stdoutPath: string; stderrPath: string };
}

/** What a batch executor is made with; the runner defaults to the system's commands. */
export interface SchedulerOptions {
  /** Where the id → work dir index lives. */
  stateDir: string;
  /** Job stdout/stderr go here instead of the job's state dir. */
  logDir?: string;
  runner?: CommandRunner;
  /** First interval of the shared poll loop. */
  pollMs?: number;
}

type BatchOptions = SchedulerOptions & { runner: CommandRunner };

export class BatchExecutor implements Executor {
  readonly kind: 'slurm' | 'pbs' | 'lsf';
  protected readonly index: JobIndex;
  private readonly waiters: SlurmWaiters;

  constructor(
    protected readonly cli: SchedulerCli,
    protected readonly opts: BatchOptions,
  ) {
    this.kind = cli.kind;
    this.index = new JobIndex(opts.stateDir);
    this.waiters = new SlurmWaiters((ids) => this.status(ids), opts.pollMs ?? 1000);
  }

  async submit(spec: JobSpec): Promise<JobRef> {
    const workDir = resolve(spec.workDir);
    const stateDir = jobsDir(workDir);
    const logDir = this.opts.logDir ? resolve(this.opts.logDir) : stateDir;
    const script = this.cli.script({ ...spec, workDir }, { stateDir, logDir });
    mkdirSync(logDir, { recursive: true });
    const ext = this.cli.ext ?? this.kind;
    const draft = join(stateDir, `pending-${crypto.randomUUID()}.${ext}`);
    writeFileAtomic(draft, script);
    const { argv, stdin } = this.cli.submit(draft, spec);
    const res = await this.opts.runner(argv, stdin ? draft : undefined).catch((err: unknown) => {
      rmSync(draft, { force: true });
      throw err;
    });
    const id = res.code === 0 ? this.cli.parseSubmit(res.stdout) : null;
    if (!id) {
      rmSync(draft, { force: true });
      throw new SvcError(`${argv[0]} refused job ${spec.name}: ${firstLine(res.stderr || res.stdout)}`);
    }
    renameSync(draft, join(stateDir, `${id}.${ext}`));
    this.index.save({ id, kind: this.kind, workDir, name: spec.name, submittedAt: new Date().toISOString(), ...this.cli.logPaths(spec, logDir, id) });
    return { id, kind: this.kind, workDir };
  }

  /** One scheduler query for all ids. */
  async status(ids: string[]): Promise<Map<string, JobStatus>> {
    const records = ids.map((id) => this.index.get(this.kind, id));
    const cancelled = new Set(records.filter((r) => existsSync(cancelMarker(r.workDir, r.id))).map((r) => r.id));
    const seen = ids.length ? await this.cli.query(ids, this.opts.runner, cancelled) : new Map<string, SchedulerState>();
    return new Map(records.map((r) => [r.id, withExitFile(seen.get(r.id), readExitCode(r.workDir, r.id))]));
  }

  async cancel(id: string): Promise<void> {
    const rec = this.index.get(this.kind, id);
    writeFileAtomic(cancelMarker(rec.workDir, id), new Date().toISOString());
    const argv = this.cli.cancelArgv(id);
    const res = await this.opts.runner(argv);
    if (res.code !== 0) {
      rmSync(cancelMarker(rec.workDir, id), { force: true });
      throw new SvcError(`${argv[0]} ${id} failed: ${firstLine(res.stderr || res.stdout)}`);
    }
  }

  async logs(id: string): Promise<{ stdout: string; stderr: string }> {
    return readLogs(this.index.get(this.kind, id));
  }

  /** The files the job's stdout and stderr go to; PBS and LSF fill them in when the job ends. */
  logPaths(id: string): { stdoutPath: string; stderrPath: string } {
    const { stdoutPath, stderrPath } = this.index.get(this.kind, id);
    return { stdoutPath, stderrPath };
  }

  wait(id: string, opts: WaitOptions = {}): Promise<JobStatus> {
    this.index.get(this.kind, id);
    return this.waiters.add(id, opts);
  }
}

function cancelMarker(workDir: string, id: string): string {
  return join(jobsDir(workDir), `${id}.cancelled`);
}

/**
 * The exit file decides COMPLETED against FAILED; a reason from the scheduler (TIMEOUT, CANCELLED,
 * ...) stands. A job neither the scheduler nor the exit file knows is ERROR.
 */
export function withExitFile(s: SchedulerState | undefined, exitCode: number | null): JobStatus {
  if (exitCode !== null && (!s || s.state === 'COMPLETED' || s.state === 'FAILED') && !s?.reason) {
    return { state: exitCode === 0 ? 'COMPLETED' : 'FAILED', exitCode };
  }
  if (!s) return { state: 'ERROR', exitCode: null };
  const done: JobStatus = { state: s.state, exitCode, ...(s.reason ? { reason: s.reason } : {}) };
  return isFinished(done) ? done : { state: s.state, exitCode: null };
}

export function firstLine(text: string): string {
  return text.trim().split('\n')[0] || 'no output';
}
