/**
 * Jobs on this machine: each one a bash process in its own process group, so a wall-clock limit
 * or a cancel kills everything it started. State lives in files (pid, exit code, reason), so
 * another process holding the same state dir reads a job's status too.
 */
import { existsSync, mkdirSync, openSync, closeSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '../core/atomic.ts';
import type { Executor, JobReason, JobRef, JobSpec, JobStatus, WaitOptions } from './executor.ts';
import { bodyOf, exitFile, JobIndex, jobsDir, pollUntilDone, readExitCode, readLogs, shellQuote, wrapperScript } from './job-state.ts';

/** How long a killed group gets between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 2000;

export class LocalExecutor implements Executor {
  readonly kind = 'local' as const;
  private readonly index: JobIndex;

  constructor(stateDir: string) {
    this.index = new JobIndex(stateDir);
  }

  async submit(spec: JobSpec): Promise<JobRef> {
    const body = bodyOf(spec);
    const workDir = resolve(spec.workDir);
    const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    const dir = jobsDir(workDir);
    mkdirSync(dir, { recursive: true });
    const stdoutPath = join(dir, `${id}.out`);
    const stderrPath = join(dir, `${id}.err`);
    const script = wrapperScript(body, shellQuote(exitFile(workDir, id)), spec.env);
    this.index.save({ id, kind: 'local', workDir, name: spec.name, submittedAt: new Date().toISOString(), stdoutPath, stderrPath });
    const out = openSync(stdoutPath, 'a');
    const err = openSync(stderrPath, 'a');
    const proc = Bun.spawn(['bash', '-c', script], {
      cwd: workDir,
      env: { ...process.env, ...spec.env, SVC_JOB_ID: id },
      stdin: 'ignore',
      stdout: out,
      stderr: err,
      detached: true,
    });
    closeSync(out);
    closeSync(err);
    writeFileAtomic(join(dir, `${id}.pid`), String(proc.pid));
    const limit = setTimeout(() => killGroup(workDir, id, proc.pid, 'TIMEOUT'), spec.wallTimeS * 1000);
    limit.unref();
    proc.exited.then(() => clearTimeout(limit));
    proc.unref();
    return { id, kind: 'local', workDir };
  }

  async status(ids: string[]): Promise<Map<string, JobStatus>> {
    const out = new Map<string, JobStatus>();
    for (const id of ids) out.set(id, this.statusOf(id));
    return out;
  }

  async cancel(id: string): Promise<void> {
    const { workDir } = this.index.get('local', id);
    const pid = readPid(workDir, id);
    if (pid !== null && readExitCode(workDir, id) === null) killGroup(workDir, id, pid, 'CANCELLED');
  }

  async logs(id: string): Promise<{ stdout: string; stderr: string }> {
    return readLogs(this.index.get('local', id));
  }

  wait(id: string, opts?: WaitOptions): Promise<JobStatus> {
    return pollUntilDone(async () => this.statusOf(id), { pollMs: 50, ...opts });
  }

  private statusOf(id: string): JobStatus {
    const { workDir } = this.index.get('local', id);
    const exitCode = readExitCode(workDir, id);
    const reason = readReason(workDir, id);
    if (exitCode !== null) return { state: exitCode === 0 ? 'COMPLETED' : 'FAILED', exitCode, ...(reason ? { reason } : {}) };
    const pid = readPid(workDir, id);
    if (pid !== null && leaderAlive(pid)) return { state: 'RUNNING', exitCode: null };
    // Gone without an exit code: killed by us (the reason says why) or by something else.
    return reason ? { state: 'FAILED', reason, exitCode: null } : { state: 'ERROR', exitCode: null };
  }
}

function readPid(workDir: string, id: string): number | null {
  const p = join(jobsDir(workDir), `${id}.pid`);
  return existsSync(p) ? Number(readFileSync(p, 'utf8')) : null;
}

function readReason(workDir: string, id: string): JobReason | undefined {
  const p = join(jobsDir(workDir), `${id}.reason`);
  return existsSync(p) ? (readFileSync(p, 'utf8').trim() as JobReason) : undefined;
}

/**
 * The job's leader process still runs. A zombie counts as ended: in a container whose PID 1 does
 * not reap, killed processes stay zombies for good.
 */
function leaderAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    if (existsSync('/proc/self/stat')) return false;
  }
  try {
    process.kill(pid, 0); // no /proc (macOS): existence is all we can ask
    return true;
  } catch {
    return false;
  }
}

/** Record why, then SIGTERM the whole group and SIGKILL what is left after a grace period. */
function killGroup(workDir: string, id: string, pgid: number, reason: JobReason): void {
  if (!leaderAlive(pgid)) return;
  writeFileAtomic(join(jobsDir(workDir), `${id}.reason`), reason);
  signalGroup(pgid, 'SIGTERM');
  setTimeout(() => signalGroup(pgid, 'SIGKILL'), KILL_GRACE_MS).unref();
}

function signalGroup(pgid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pgid, sig);
  } catch {
    // the group already ended
  }
}
