// The benchmark's job store: real SQLite files in a temp directory, opened as the queue opens them.
import { afterEach, beforeEach, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { HOST } from '../../../src/bench/jobs/liveness.ts';
import { JOBS_DB, JobStore } from '../../../src/bench/jobs/store.ts';
import { InvalidRecordError } from '../../../src/core/errors.ts';
import type { JobConfigs } from '../../../src/schema/bench-api.ts';
import { results } from '../../support/bench-jobs.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const CONFIGS: JobConfigs = { rubric: { two_stage: false }, reproduce: { time_limit_sec: 600, sandbox_kind: 'local' }, judge: { n_runs: 2 } };
const A = { pid: process.pid, host: HOST, token: 'a'.repeat(32) };
const B = { pid: process.pid, host: HOST, token: 'b'.repeat(32) };

let dir: string;
let store: JobStore;
beforeEach(() => {
  dir = tempDir();
  store = JobStore.open(join(dir, 'registry'));
});
afterEach(() => {
  if (!store.closed) store.close();
  removeDir(dir);
});

const jobs = (n: number) => Array.from({ length: n }, (_, i) => ({ job_id: `job${String(i).padStart(2, '0')}`.padEnd(32, '0'), paper_id: `p${i}`, configs: CONFIGS }));

test('opens jobs.sqlite in the registry directory (created), WAL, schema version 1; jobs outlive the connection', () => {
  expect(existsSync(join(dir, 'registry', JOBS_DB))).toBe(true);
  store.insertJobs(jobs(2));
  store.close();
  const db = new Database(join(dir, 'registry', JOBS_DB));
  expect(db.query('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
  expect(db.query('PRAGMA user_version').get()).toEqual({ user_version: 1 });
  db.close();
  store = JobStore.open(join(dir, 'registry'));
  const [first] = store.list();
  expect(first).toEqual({ job_id: jobs(1)[0]!.job_id, paper_id: 'p0', status: 'queued', current_stage: 'queued', progress: 0, configs: CONFIGS, created_at: expect.any(String), started_at: null, ended_at: null, error: null, log_count: 0 });
  expect(store.list().map((j) => j.paper_id)).toEqual(['p0', 'p1']);
});

test('a store written by a newer svc is refused with the fix, and left as it was', () => {
  store.close();
  const file = join(dir, 'registry', JOBS_DB);
  const db = new Database(file);
  db.run('PRAGMA user_version = 7');
  db.close();
  expect(() => JobStore.open(join(dir, 'registry'))).toThrow(InvalidRecordError);
  expect(() => JobStore.open(join(dir, 'registry'))).toThrow(/schema version 7; this svc knows up to 1/);
  const after = new Database(file);
  expect(after.query('PRAGMA user_version').get()).toEqual({ user_version: 7 });
  after.close();
});

test('jobs are inserted all or none: a duplicate id inserts nothing', () => {
  const twice = [...jobs(2), jobs(1)[0]!];
  expect(() => store.insertJobs(twice)).toThrow();
  expect(store.list()).toEqual([]);
});

test('claims go oldest first, never past the limit, and only among the given jobs when asked', () => {
  store.insertJobs(jobs(4));
  expect(store.claimNext(A, 2)?.paper_id).toBe('p0');
  expect(store.claimNext(B, 2)?.paper_id).toBe('p1');
  expect(store.claimNext(A, 2)).toBeNull();
  const running = store.get(jobs(1)[0]!.job_id)!;
  expect(running.status).toBe('running');
  expect(running.started_at).not.toBeNull();
  expect(store.claimNext(A, 3, new Set([jobs(4)[3]!.job_id]))?.paper_id).toBe('p3');
  expect(store.claimNext(A, 4, new Set())).toBeNull();
  expect(store.running().map((r) => [r.paper_id, r.owner_token])).toEqual([
    ['p0', A.token],
    ['p1', B.token],
    ['p3', A.token],
  ]);
});

test('two connections claiming the same store share the limit and never get the same job', () => {
  const other = JobStore.open(join(dir, 'registry'));
  store.insertJobs(jobs(6));
  const got = [store.claimNext(A, 3), other.claimNext(B, 3), store.claimNext(A, 3), other.claimNext(B, 3)];
  other.close();
  expect(got.map((j) => j?.paper_id ?? null)).toEqual(['p0', 'p1', 'p2', null]);
});

test('stage and progress are kept for the owner only', () => {
  store.insertJobs(jobs(1));
  const id = store.claimNext(A, 1)!.job_id;
  expect(store.setStage(id, A, 'reproduce_run', 0.55)).toBe(true);
  expect(store.setStage(id, B, 'grade', 0.85)).toBe(false);
  expect(store.get(id)).toMatchObject({ current_stage: 'reproduce_run', progress: 0.55 });
});

test('log lines are numbered from 0, read after an index, and an in-process listener hears each', () => {
  store.insertJobs(jobs(1));
  const id = jobs(1)[0]!.job_id;
  let heard = 0;
  const off = store.onChange(id, () => heard++);
  expect([store.appendLog(id, 'info', 'a'), store.appendLog(id, 'warning', 'b'), store.appendLog(id, 'error', 'c')]).toEqual([0, 1, 2]);
  off();
  store.appendLog(id, 'info', 'd');
  expect(heard).toBe(3);
  expect(store.logsAfter(id, 0).map((l) => [l.seq, l.level, l.msg])).toEqual([
    [1, 'warning', 'b'],
    [2, 'error', 'c'],
    [3, 'info', 'd'],
  ]);
  expect(store.logsAfter(id, -1, 2).map((l) => l.seq)).toEqual([0, 1]);
  expect(store.logsAfter(id, 99)).toEqual([]);
  expect(store.get(id)?.log_count).toBe(4);
});

test('a log stops at its cap with one line saying later lines were dropped', () => {
  store.close();
  store = JobStore.open(join(dir, 'registry'), { logCap: 5 });
  store.insertJobs(jobs(1));
  const id = jobs(1)[0]!.job_id;
  const seqs = Array.from({ length: 9 }, (_, i) => store.appendLog(id, 'info', `line ${i}`));
  expect(seqs).toEqual([0, 1, 2, 3, 4, null, null, null, null]);
  const lines = store.logsAfter(id, -1);
  expect(lines.length).toBe(6);
  expect(lines[5]).toMatchObject({ seq: 5, level: 'warning', msg: 'the log reached 5 lines: later lines of this job were dropped' });
});

test('a completed job keeps its results and last line; an ended job takes no more lines', () => {
  store.insertJobs(jobs(2));
  const [done, other] = [store.claimNext(A, 2)!, store.claimNext(A, 2)!];
  expect(store.results(done.job_id)).toBeNull();
  expect(store.complete(done.job_id, B, results('p0', '/r', 1), 'completed')).toBe(false);
  expect(store.complete(done.job_id, A, results('p0', '/r', 1), 'completed')).toBe(true);
  expect(store.get(done.job_id)).toMatchObject({ status: 'completed', current_stage: 'completed', progress: 1, error: null, ended_at: expect.any(String) });
  expect(store.results(done.job_id)).toEqual(results('p0', '/r', 1));
  expect(store.appendLog(done.job_id, 'info', 'late')).toBeNull();
  expect(store.logsAfter(done.job_id, -1).map((l) => [l.level, l.msg])).toEqual([['success', 'completed']]);

  expect(store.fail(other.job_id, B.token, 'x', [])).toBe(false);
  expect(store.fail(other.job_id, A.token, 'it broke', [['error', 'it broke']])).toBe(true);
  expect(store.fail(other.job_id, null, 'again', [])).toBe(false);
  expect(store.get(other.job_id)).toMatchObject({ status: 'failed', current_stage: 'queued', error: 'it broke' });
  expect(store.results(other.job_id)).toBeNull();
});

test('workers are listed until removed', () => {
  store.addWorker(A);
  store.addWorker(B);
  store.removeWorker(A);
  expect(store.workers()).toEqual([B]);
});
