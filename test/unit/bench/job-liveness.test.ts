// When a running job counts as gone: its owner's heartbeat lease, its PID checked on its own host
// only, and a queue's own job whose end the store refused. Real stores in a temp directory; another
// connection holds the write lock as another process would.
import { afterEach, beforeEach, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { estimateCost, estimateRun } from '../../../src/bench/cost.ts';
import { HOST, JOB_LEASE_MS } from '../../../src/bench/jobs/liveness.ts';
import { BenchJobs, jobConfigsOf } from '../../../src/bench/jobs/queue.ts';
import { JOBS_DB, JobStore } from '../../../src/bench/jobs/store.ts';
import type { JobExecutor } from '../../../src/bench/jobs/types.ts';
import type { FollowBatch } from '../../../src/bench/jobs/follow.ts';
import { paperRegistry, results } from '../../support/bench-jobs.ts';
import type { PaperRegistry } from '../../../src/bench/registry.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { until } from '../../support/until.ts';

const CONFIGS = jobConfigsOf({});
const IDS = ['p0', 'p1', 'p2'];

let dir: string;
let queues: BenchJobs[];
let papers: PaperRegistry;
beforeEach(async () => {
  dir = tempDir();
  queues = [];
  papers = await paperRegistry(dir, IDS);
});
afterEach(async () => {
  for (const q of queues) await q.stop();
  removeDir(dir);
});

function queue(execute: JobExecutor, opts: { pollMs?: number; busyTimeoutMs?: number; maxRunning?: number; stopGraceMs?: number } = {}): BenchJobs {
  const store = JobStore.open(join(dir, 'registry'), { busyTimeoutMs: opts.busyTimeoutMs });
  const q = new BenchJobs({ store, papers, execute, cost: { estimateCost, estimateRun }, env: {}, claims: 'any', maxRunning: opts.maxRunning ?? 1, pollMs: opts.pollMs ?? 50, stopGraceMs: opts.stopGraceMs });
  queues.push(q);
  return q;
}


/** A PID that was just in use on this host and is no more. */
async function deadPid(): Promise<number> {
  const p = Bun.spawn(['true']);
  await p.exited;
  return p.pid;
}

/** Sets a running job's owner and heartbeat as another process would have written them. */
function own(jobId: string, owner: { pid: number; host: string; token: string }, heartbeatAgoMs: number): void {
  const db = new Database(join(dir, 'registry', JOBS_DB));
  db.query(`UPDATE jobs SET status = 'running', current_stage = 'reproduce_run', owner_pid = $pid, owner_host = $host, owner_token = $token, heartbeat_at = $beat WHERE job_id = $id`).run({ pid: owner.pid, host: owner.host, token: owner.token, beat: Date.now() - heartbeatAgoMs, id: jobId });
  db.close();
}

/** Holds the store's write lock from another connection for `ms`. */
function holdLock(ms: number): Promise<void> {
  const db = new Database(join(dir, 'registry', JOBS_DB));
  db.run('BEGIN IMMEDIATE');
  return Bun.sleep(ms).then(() => {
    db.run('COMMIT');
    db.close();
  });
}

test("another host's job is judged by its heartbeat only: its PID is not checked here, and a lapsed lease fails it", async () => {
  const q = queue(async () => results('p0', '/r', 0));
  const [job] = q.submit(['p0'], CONFIGS);
  own(job!.job_id, { pid: await deadPid(), host: `not-${HOST}`, token: 'x'.repeat(32) }, 1000);
  q.reapOrphans();
  expect(q.get(job!.job_id).status).toBe('running');
  own(job!.job_id, { pid: await deadPid(), host: `not-${HOST}`, token: 'x'.repeat(32) }, JOB_LEASE_MS + 1000);
  q.reapOrphans();
  expect(q.get(job!.job_id)).toMatchObject({ status: 'failed', current_stage: 'reproduce_run', error: expect.stringContaining(`on not-${HOST}) stopped while this job was in stage reproduce_run`) });
});

test('on this host a dead PID fails the job at once; a live PID (reused by another process) fails it once the lease lapses', async () => {
  const q = queue(async () => results('p0', '/r', 0));
  const [dead, reused] = q.submit(['p0', 'p1'], CONFIGS);
  own(dead!.job_id, { pid: await deadPid(), host: HOST, token: 'd'.repeat(32) }, 0);
  const sleeper = Bun.spawn(['sleep', '30']);
  try {
    own(reused!.job_id, { pid: sleeper.pid, host: HOST, token: 'r'.repeat(32) }, 1000);
    q.reapOrphans();
    expect(q.get(dead!.job_id).status).toBe('failed');
    expect(q.get(reused!.job_id).status).toBe('running');
    own(reused!.job_id, { pid: sleeper.pid, host: HOST, token: 'r'.repeat(32) }, JOB_LEASE_MS + 1000);
    q.reapOrphans();
    expect(q.get(reused!.job_id).status).toBe('failed');
  } finally {
    sleeper.kill();
  }
});

test("the owner refreshes its running jobs' heartbeat at each poll, and another queue of this process leaves them alone", async () => {
  let release = () => {};
  const q = queue(() => new Promise((resolve) => (release = () => resolve(results('p0', '/r', 0))))).start();
  const [job] = q.submit(['p0'], CONFIGS);
  const first = await until('the job to run', () => q.store.running()[0]);
  const later = await until('a newer heartbeat', () => q.store.running().find((r) => r.heartbeat_at > first.heartbeat_at));
  expect(later).toMatchObject({ job_id: job!.job_id, owner_pid: process.pid, owner_host: HOST, owner_token: q.owner.token });
  const other = queue(async () => results('p1', '/r', 0));
  other.reapOrphans();
  expect(q.get(job!.job_id).status).toBe('running');
  release();
  expect((await q.settled([job!.job_id]))[0]!.status).toBe('completed');
});

test('an end the store refused for a moment is written again: the job completes', async () => {
  let lock: Promise<void> = Promise.resolve();
  const q = queue(async (job) => {
    lock = holdLock(150);
    return results(job.paper.paper_id, job.runDir, 0);
  }, { busyTimeoutMs: 20 }).start();
  const [job] = q.submit(['p0'], CONFIGS);
  const [done] = await q.settled([job!.job_id]);
  await lock;
  expect(done).toMatchObject({ status: 'completed', current_stage: 'completed' });
});

test('a job whose end the store kept refusing does not hold its slot: the next poll fails it, and the next job runs', async () => {
  let lock: Promise<void> | null = null;
  const q = queue(async (job) => {
    lock ??= holdLock(1500);
    return results(job.paper.paper_id, job.runDir, 0);
  }, { busyTimeoutMs: 20 }).start();
  const [stuck, next] = q.submit(['p0', 'p1'], CONFIGS);
  const done = await q.settled([stuck!.job_id, next!.job_id]);
  expect(done[0]).toMatchObject({ status: 'failed', error: expect.stringContaining('the end of this job could not be recorded') });
  expect(done[1]!.status).toBe('completed');
}, 30_000);

test('a follower that reads slowly still gets the end the stop wrote, before the store closes', async () => {
  const q = queue((_job, ctx) => new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted'))))).start();
  const [job] = q.submit(['p0'], CONFIGS);
  await until('the job to run', () => q.get(job!.job_id).status === 'running');
  const batches: FollowBatch[] = [];
  const reading = (async () => {
    for await (const b of q.follow(job!.job_id, -1, new AbortController().signal)) {
      batches.push(b);
      await Bun.sleep(100);
    }
  })();
  await until('the first batch', () => batches.length > 0);
  await q.stop();
  await reading;
  expect(batches.at(-1)?.done).toBe('failed');
  expect(batches.flatMap((b) => b.lines).at(-1)?.msg).toContain('the server stopped while this job was in stage queued');
});
