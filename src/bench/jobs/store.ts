import { Database } from 'bun:sqlite';
import { mkdirSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidRecordError } from '../../core/errors.ts';
import { logFor } from '../../core/log.ts';
import type { JobConfigs, JobResults, JobSnapshot, JobStage, JobStatus, LogLevel } from '../../schema/bench-api.ts';
import type { StoredLogLine } from './types.ts';

export const JOBS_DB = 'jobs.sqlite';
const SCHEMA_VERSION = 1;
/** Lines kept per job; one more says the rest were dropped. A chatty job cannot fill the disk. */
export const LOG_CAP = 100_000;

/** The queue running a job: its process's PID and host, and a token of that queue (a PID can be reused). */
export type JobOwner = { pid: number; host: string; token: string };

/** A running job as the liveness check sees it; `heartbeat_at` (ms since the epoch) is refreshed by its owner while it runs. */
export type RunningJob = { job_id: string; paper_id: string; current_stage: JobStage; owner_pid: number; owner_host: string; owner_token: string; heartbeat_at: number };

/** A job that has not ended, as a check before deleting its paper names it. */
export type ActiveJob = { job_id: string; status: 'queued' | 'running' };

type JobRow = Omit<JobSnapshot, 'configs'> & { configs: string };

/**
 * The jobs are rows, not memory: a job outlives the process that created it. `seq` (the rowid)
 * is the order of submission, which is the order jobs are claimed in. `log_count` is the next
 * line's index, kept on the job so an append and its index are one write.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS jobs (
  seq INTEGER PRIMARY KEY, job_id TEXT NOT NULL UNIQUE, paper_id TEXT NOT NULL, status TEXT NOT NULL,
  current_stage TEXT NOT NULL, progress REAL NOT NULL, configs TEXT NOT NULL, created_at TEXT NOT NULL,
  started_at TEXT, ended_at TEXT, results TEXT, error TEXT, owner_pid INTEGER, owner_host TEXT, owner_token TEXT,
  heartbeat_at INTEGER, log_count INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS jobs_by_status ON jobs (status, seq);
CREATE INDEX IF NOT EXISTS jobs_by_paper ON jobs (paper_id, status);
CREATE TABLE IF NOT EXISTS logs (
  job_id TEXT NOT NULL, seq INTEGER NOT NULL, ts TEXT NOT NULL, level TEXT NOT NULL, msg TEXT NOT NULL,
  PRIMARY KEY (job_id, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS workers (pid INTEGER NOT NULL, host TEXT NOT NULL, token TEXT NOT NULL PRIMARY KEY, started_at TEXT NOT NULL);
`;

const RUNNING_COLUMNS = 'job_id, paper_id, current_stage, owner_pid, owner_host, owner_token, heartbeat_at';
const SNAPSHOT_COLUMNS = 'job_id, paper_id, status, current_stage, progress, configs, created_at, started_at, ended_at, error, log_count';
const now = () => new Date().toISOString();

/**
 * The benchmark's jobs and their logs in `<registry>/jobs.sqlite`, shared by every process that
 * opens the registry (the dashboard, `svc bench run`). WAL with synchronous=NORMAL: a commit
 * survives a killed process (the frames are written before it returns), and a job logging
 * thousands of lines does not pay an fsync each. Writes that read first run in BEGIN IMMEDIATE
 * transactions, so two processes never act on the same stale read.
 *
 * WAL shares its index through a memory-mapped file, so every process must be on the host that
 * holds the registry's disk: the registry belongs on a local filesystem. On a network filesystem
 * (NFS, SMB, Lustre, GPFS, CephFS, as on cluster login nodes) two hosts can corrupt the store or
 * see stale reads; opening one there logs a warning.
 */
export class JobStore {
  private readonly listeners = new Map<string, Set<() => void>>();

  private constructor(
    private readonly db: Database,
    readonly file: string,
    readonly logCap: number,
  ) {}

  /** `busyTimeoutMs`: how long a write waits for another process's write (default 10 s). */
  static open(registryDir: string, opts: { logCap?: number; busyTimeoutMs?: number } = {}): JobStore {
    mkdirSync(registryDir, { recursive: true });
    warnIfNetworkFilesystem(registryDir);
    const file = join(registryDir, JOBS_DB);
    const db = new Database(file, { create: true, strict: true });
    try {
      db.run(`PRAGMA busy_timeout = ${Math.trunc(opts.busyTimeoutMs ?? 10_000)}`);
      db.run('PRAGMA journal_mode = WAL');
      db.run('PRAGMA synchronous = NORMAL');
      const version = (db.query('PRAGMA user_version').get() as { user_version: number }).user_version;
      if (version > SCHEMA_VERSION) throw new InvalidRecordError(`${file} has schema version ${version}; this svc knows up to ${SCHEMA_VERSION}`, 'use the newer svc that wrote it');
      db.transaction(() => {
        db.run(SCHEMA);
        db.run(`PRAGMA user_version = ${SCHEMA_VERSION}`);
      }).immediate();
    } catch (err) {
      db.close();
      throw err;
    }
    return new JobStore(db, file, opts.logCap ?? LOG_CAP);
  }

  /** Creates queued jobs, all or none. */
  insertJobs(jobs: { job_id: string; paper_id: string; configs: JobConfigs }[]): void {
    const insert = this.db.query(`INSERT INTO jobs (job_id, paper_id, status, current_stage, progress, configs, created_at) VALUES ($job_id, $paper_id, 'queued', 'queued', 0, $configs, $created_at)`);
    const created_at = now();
    this.db.transaction(() => {
      for (const j of jobs) insert.run({ job_id: j.job_id, paper_id: j.paper_id, configs: JSON.stringify(j.configs), created_at });
    }).immediate();
  }

  get(jobId: string): JobSnapshot | null {
    const row = this.db.query(`SELECT ${SNAPSHOT_COLUMNS} FROM jobs WHERE job_id = $jobId`).get({ jobId }) as JobRow | null;
    return row ? snapshotOf(row) : null;
  }

  /** Every job, oldest first. */
  list(): JobSnapshot[] {
    return (this.db.query(`SELECT ${SNAPSHOT_COLUMNS} FROM jobs ORDER BY seq`).all() as JobRow[]).map(snapshotOf);
  }

  /** The results of a completed job; null for any other. */
  results(jobId: string): JobResults | null {
    const row = this.db.query(`SELECT results FROM jobs WHERE job_id = $jobId AND status = 'completed'`).get({ jobId }) as { results: string | null } | null;
    return row?.results ? (JSON.parse(row.results) as JobResults) : null;
  }

  /**
   * Marks the oldest queued job running for `owner` and returns it, when fewer than `limit` jobs
   * of the whole store run; else null. Check and update are one immediate transaction, so of two
   * processes claiming at once each gets another job, and the limit holds across them.
   * `among`: only these jobs may be claimed (a CLI run takes its own jobs only).
   */
  claimNext(owner: JobOwner, limit: number, among?: ReadonlySet<string>): JobSnapshot | null {
    return this.db.transaction(() => {
      const running = (this.db.query(`SELECT count(*) AS n FROM jobs WHERE status = 'running'`).get() as { n: number }).n;
      if (running >= limit) return null;
      const queued = this.db.query(`SELECT job_id FROM jobs WHERE status = 'queued' ORDER BY seq${among ? '' : ' LIMIT 1'}`).all() as { job_id: string }[];
      const next = among ? queued.find((q) => among.has(q.job_id)) : queued[0];
      if (!next) return null;
      const row = this.db
        .query(`UPDATE jobs SET status = 'running', started_at = $at, owner_pid = $pid, owner_host = $host, owner_token = $token, heartbeat_at = $beat WHERE job_id = $jobId AND status = 'queued' RETURNING ${SNAPSHOT_COLUMNS}`)
        .get({ at: now(), pid: owner.pid, host: owner.host, token: owner.token, beat: Date.now(), jobId: next.job_id }) as JobRow | null;
      return row ? snapshotOf(row) : null;
    }).immediate();
  }

  /** Refreshes the heartbeat of the running jobs of `owner` among `jobIds`: they are alive. */
  heartbeat(owner: JobOwner, jobIds: readonly string[]): void {
    if (jobIds.length === 0) return;
    this.db
      .query(`UPDATE jobs SET heartbeat_at = $beat WHERE status = 'running' AND owner_token = $token AND job_id IN (SELECT value FROM json_each($ids))`)
      .run({ beat: Date.now(), token: owner.token, ids: JSON.stringify(jobIds) });
  }

  /** Records the stage a running job of `owner` entered; false when the job is no longer its. */
  setStage(jobId: string, owner: JobOwner, stage: JobStage, progress: number): boolean {
    const changed = this.db.query(`UPDATE jobs SET current_stage = $stage, progress = $progress WHERE job_id = $jobId AND status = 'running' AND owner_token = $token`).run({ stage, progress, jobId, token: owner.token }).changes;
    this.notify(jobId);
    return changed > 0;
  }

  /** Appends a line to a job that has not ended; returns its index, or null when it was not kept. */
  appendLog(jobId: string, level: LogLevel, msg: string): number | null {
    const seq = this.db.transaction(() => this.appendIn(jobId, level, msg)).immediate();
    if (seq !== null) this.notify(jobId);
    return seq;
  }

  /** Completes a running job of `owner` with its results and a last line; false when it is no longer its. */
  complete(jobId: string, owner: JobOwner, results: JobResults, msg: string): boolean {
    return this.end(jobId, owner.token, { status: 'completed', stage: 'completed', results: JSON.stringify(results), error: null }, [['success', msg]]);
  }

  /**
   * Fails a job that has not ended with `error` and its last lines. The job keeps the stage it
   * was in: the status says it failed, the stage says where. `ownerToken`: only while that
   * process still owns it (a job another process already failed or took is left alone); null: a
   * queued or running job whoever owns it.
   */
  fail(jobId: string, ownerToken: string | null, error: string, lines: [LogLevel, string][]): boolean {
    return this.end(jobId, ownerToken, { status: 'failed', stage: null, results: null, error }, lines);
  }

  /** `stage` null: the job keeps the one it is in. */
  private end(jobId: string, ownerToken: string | null, to: { status: JobStatus; stage: JobStage | null; results: string | null; error: string | null }, lines: [LogLevel, string][]): boolean {
    const owned = ownerToken === null ? `status IN ('queued', 'running')` : `status = 'running' AND owner_token = $token`;
    const done = this.db.transaction(() => {
      const row = this.db.query(`SELECT job_id FROM jobs WHERE job_id = $jobId AND ${owned}`).get(ownerToken === null ? { jobId } : { jobId, token: ownerToken });
      if (!row) return false;
      for (const [level, msg] of lines) this.appendIn(jobId, level, msg);
      this.db
        .query(`UPDATE jobs SET status = $status, current_stage = coalesce($stage, current_stage), progress = CASE WHEN $status = 'completed' THEN 1 ELSE progress END, ended_at = $at, results = $results, error = $error WHERE job_id = $jobId`)
        .run({ status: to.status, stage: to.stage, at: now(), results: to.results, error: to.error, jobId });
      return true;
    }).immediate();
    if (done) this.notify(jobId);
    return done;
  }

  private appendIn(jobId: string, level: LogLevel, msg: string): number | null {
    const row = this.db.query(`SELECT log_count FROM jobs WHERE job_id = $jobId AND status IN ('queued', 'running')`).get({ jobId }) as { log_count: number } | null;
    if (!row || row.log_count > this.logCap) return null;
    const capped = row.log_count === this.logCap;
    const line = capped ? { level: 'warning', msg: `the log reached ${this.logCap} lines: later lines of this job were dropped` } : { level, msg };
    this.db.query('INSERT INTO logs (job_id, seq, ts, level, msg) VALUES ($jobId, $seq, $ts, $level, $msg)').run({ jobId, seq: row.log_count, ts: now(), ...line });
    this.db.query('UPDATE jobs SET log_count = log_count + 1 WHERE job_id = $jobId').run({ jobId });
    return capped ? null : row.log_count;
  }

  /** Lines with an index above `afterSeq`, at most `limit`, in order. */
  logsAfter(jobId: string, afterSeq: number, limit = 1000): StoredLogLine[] {
    return this.db.query('SELECT seq, ts, level, msg FROM logs WHERE job_id = $jobId AND seq > $afterSeq ORDER BY seq LIMIT $limit').all({ jobId, afterSeq, limit }) as StoredLogLine[];
  }

  /** Status and line count, the two things a follower checks. */
  progressOf(jobId: string): { status: JobStatus; log_count: number } | null {
    return this.db.query('SELECT status, log_count FROM jobs WHERE job_id = $jobId').get({ jobId }) as { status: JobStatus; log_count: number } | null;
  }

  running(): RunningJob[] {
    return this.db.query(`SELECT ${RUNNING_COLUMNS} FROM jobs WHERE status = 'running' ORDER BY seq`).all() as RunningJob[];
  }

  /** The jobs of a paper that have not ended, with what the liveness check needs of a running one. */
  activeOf(paperId: string): (ActiveJob & Partial<RunningJob>)[] {
    return this.db.query(`SELECT status, ${RUNNING_COLUMNS} FROM jobs WHERE paper_id = $paperId AND status IN ('queued', 'running') ORDER BY seq`).all({ paperId }) as (ActiveJob & Partial<RunningJob>)[];
  }

  /** Processes that pick up any queued job (dashboards), so a detached submit can say whether one will. */
  addWorker(owner: JobOwner): void {
    this.db.query('INSERT OR REPLACE INTO workers (pid, host, token, started_at) VALUES ($pid, $host, $token, $at)').run({ pid: owner.pid, host: owner.host, token: owner.token, at: now() });
  }

  removeWorker(owner: JobOwner): void {
    this.db.query('DELETE FROM workers WHERE token = $token').run({ token: owner.token });
  }

  workers(): JobOwner[] {
    return this.db.query('SELECT pid, host, token FROM workers').all() as JobOwner[];
  }

  /** Calls `fn` whenever this process changes the job (a line, a stage, its end); returns the unsubscribe. */
  onChange(jobId: string, fn: () => void): () => void {
    let set = this.listeners.get(jobId);
    if (!set) this.listeners.set(jobId, (set = new Set()));
    set.add(fn);
    return () => {
      set.delete(fn);
      if (set.size === 0) this.listeners.delete(jobId);
    };
  }

  /** How many listeners a job has in this process (a follower that ended leaves none behind). */
  listening(jobId: string): number {
    return this.listeners.get(jobId)?.size ?? 0;
  }

  private notify(jobId: string): void {
    for (const fn of this.listeners.get(jobId) ?? []) fn();
  }

  private isClosed = false;

  get closed(): boolean {
    return this.isClosed;
  }

  close(): void {
    this.isClosed = true;
    this.db.close();
  }
}

function snapshotOf(row: JobRow): JobSnapshot {
  return { ...row, configs: JSON.parse(row.configs) as JobConfigs };
}

/** statfs f_type of filesystems served over the network, where SQLite's WAL is not safe. */
const NETWORK_FILESYSTEMS: Readonly<Record<number, string>> = {
  0x6969: 'NFS',
  0xff534d42: 'CIFS',
  0xfe534d42: 'SMB2',
  0x0bd00bd0: 'Lustre',
  0x47504653: 'GPFS',
  0x00c36400: 'CephFS',
};

function warnIfNetworkFilesystem(dir: string): void {
  let kind: string | undefined;
  try {
    kind = NETWORK_FILESYSTEMS[statfsSync(dir).type];
  } catch {
    return; // no statfs here: nothing to tell
  }
  if (kind) logFor('svc bench').warn(`${dir} is on ${kind}: the job store (SQLite in WAL mode) needs a local filesystem, and processes on other hosts may corrupt it; set SVC_PAPER_REGISTRY_DIR to a local disk`);
}
