/**
 * Jobs on a Slurm cluster. Submit with `sbatch --parsable`; ask for the state of all our jobs in
 * ONE `squeue` call per poll (finished jobs stay listed for MinJobAge); jobs it no longer lists
 * come from `sacct` when the cluster keeps accounting, else `scontrol show job`, else the exit
 * file. Every wait shares one poll loop, so a hundred waiting jobs still cost one query per interval.
 */
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../core/atomic.ts';
import { SvcError } from '../core/errors.ts';
import type { Executor, JobRef, JobSpec, JobStatus, WaitOptions } from './executor.ts';
import { isFinished } from './executor.ts';
import { JobIndex, jobsDir, readExitCode, readLogs } from './job-state.ts';
import type { CommandRunner } from './slurm-runner.ts';
import { systemRunner } from './slurm-runner.ts';
import { batchScript, logPaths } from './slurm-script.ts';
import type { SchedulerState } from './slurm-state.ts';
import { mapSlurmState, parsePipeTable, parseScontrolState } from './slurm-state.ts';
import { SlurmWaiters } from './slurm-wait.ts';

export interface SlurmOptions {
  /** Where the id → work dir index lives. */
  stateDir: string;
  /** SLURM_LOG_DIR: job stdout/stderr go here instead of the job's state dir. */
  logDir?: string;
  runner?: CommandRunner;
  /** First interval of the shared poll loop. */
  pollMs?: number;
}

export class SlurmExecutor implements Executor {
  readonly kind = 'slurm' as const;
  private readonly index: JobIndex;
  private readonly run: CommandRunner;
  private hasSacct: boolean | undefined;
  private readonly waiters: SlurmWaiters;

  constructor(private readonly opts: SlurmOptions) {
    this.index = new JobIndex(opts.stateDir);
    this.run = opts.runner ?? systemRunner();
    this.waiters = new SlurmWaiters((ids) => this.status(ids), opts.pollMs ?? 1000);
  }

  async submit(spec: JobSpec): Promise<JobRef> {
    const workDir = resolve(spec.workDir);
    const stateDir = jobsDir(workDir);
    const logDir = this.opts.logDir ? resolve(this.opts.logDir) : stateDir;
    const script = batchScript({ ...spec, workDir }, { stateDir, logDir });
    mkdirSync(logDir, { recursive: true });
    const draft = join(stateDir, `pending-${crypto.randomUUID()}.sbatch`);
    writeFileAtomic(draft, script);
    const id = await this.sbatch(draft, spec).catch((err: unknown) => {
      rmSync(draft, { force: true });
      throw err;
    });
    renameSync(draft, join(stateDir, `${id}.sbatch`));
    this.index.save({ id, kind: 'slurm', workDir, name: spec.name, submittedAt: new Date().toISOString(), ...logPaths(spec, logDir, id) });
    return { id, kind: 'slurm', workDir };
  }

  private async sbatch(scriptPath: string, spec: JobSpec): Promise<string> {
    // on the command line the comment wins over one among the script's own lines, whatever its text
    const res = await this.run(['sbatch', '--parsable', ...(spec.comment ? [`--comment=${spec.comment}`] : []), scriptPath]);
    const id = res.stdout.trim().split(';')[0] ?? '';
    if (res.code !== 0 || !/^\d+$/.test(id)) throw new SvcError(`sbatch refused job ${spec.name}: ${firstLine(res.stderr || res.stdout)}`);
    return id;
  }

  async status(ids: string[]): Promise<Map<string, JobStatus>> {
    const records = new Map(ids.map((id) => [id, this.index.get('slurm', id)]));
    const seen = await this.queryScheduler(ids);
    const out = new Map<string, JobStatus>();
    for (const [id, rec] of records) out.set(id, withExitFile(seen.get(id), readExitCode(rec.workDir, id)));
    return out;
  }

  async cancel(id: string): Promise<void> {
    this.index.get('slurm', id);
    const res = await this.run(['scancel', id]);
    if (res.code !== 0) throw new SvcError(`scancel ${id} failed: ${firstLine(res.stderr)}`);
  }

  async logs(id: string): Promise<{ stdout: string; stderr: string }> {
    return readLogs(this.index.get('slurm', id));
  }

  wait(id: string, opts: WaitOptions = {}): Promise<JobStatus> {
    this.index.get('slurm', id);
    return this.waiters.add(id, opts);
  }

  /** One squeue call for all ids; only jobs it no longer lists cost more queries. */
  private async queryScheduler(ids: string[]): Promise<Map<string, SchedulerState>> {
    const seen = new Map<string, SchedulerState>();
    if (ids.length === 0) return seen;
    const q = await this.run(['squeue', '-h', '-t', 'all', '-o', '%i|%T', '-j', ids.join(',')]);
    // squeue exits 1 with "Invalid job id" when none of the ids is known any more.
    if (q.code !== 0 && !/invalid job id/i.test(q.stderr)) throw new SvcError(`squeue failed: ${firstLine(q.stderr)}`);
    for (const [id, raw] of parsePipeTable(q.stdout)) if (ids.includes(id)) seen.set(id, mapSlurmState(raw));
    const missing = ids.filter((id) => !seen.has(id));
    if (missing.length === 0) return seen;
    if (await this.sacctWorks()) {
      const a = await this.run(['sacct', '-n', '-X', '-P', '-o', 'JobIDRaw,State', '-j', missing.join(',')]);
      for (const [id, raw] of parsePipeTable(a.stdout)) if (missing.includes(id)) seen.set(id, mapSlurmState(raw));
      return seen;
    }
    for (const id of missing) {
      const s = await this.run(['scontrol', 'show', 'job', id]);
      const raw = s.code === 0 ? parseScontrolState(s.stdout) : null;
      if (raw) seen.set(id, mapSlurmState(raw));
    }
    return seen;
  }

  /** sacct is installed on most clusters but answers only when accounting storage is configured. */
  private async sacctWorks(): Promise<boolean> {
    if (this.hasSacct === undefined) {
      if (!Bun.which('sacct')) this.hasSacct = false;
      else this.hasSacct = (await this.run(['sacct', '-n', '-X', '-j', '1'])).code === 0;
    }
    return this.hasSacct;
  }
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
