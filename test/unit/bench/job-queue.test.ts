// The benchmark job queue over a real store, with executors that run real processes, and other
// processes (test/support/bench-jobs-child.ts) sharing the store: one killed mid-job, two draining it.
import { afterEach, beforeEach, expect, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BenchJobs } from '../../../src/bench/jobs/queue.ts';
import { HOST } from '../../../src/bench/jobs/liveness.ts';
import { jobConfigsOf, maxJobsFromEnv } from '../../../src/bench/jobs/queue.ts';
import type { JobExecutor } from '../../../src/bench/jobs/types.ts';
import { InputError, NotFoundError, UnavailableError } from '../../../src/core/errors.ts';
import type { JobConfigs, JobSnapshot } from '../../../src/schema/bench-api.ts';
import { openQueue, paperRegistry, processExecutor } from '../../support/bench-jobs.ts';
import type { PaperRegistry } from '../../../src/bench/registry.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { until } from '../../support/until.ts';

const CHILD = resolve(import.meta.dir, '../../support/bench-jobs-child.ts');
const CONFIGS: JobConfigs = jobConfigsOf({ reproduce_config: { time_limit_sec: 60 } });
const IDS = Array.from({ length: 20 }, (_, i) => `paper-${String(i).padStart(2, '0')}`);

let dir: string;
let queues: BenchJobs[];
let papers: PaperRegistry;
beforeEach(async () => {
  dir = tempDir();
  queues = [];
  papers = await paperRegistry(dir, IDS, ['no-pdf']);
});
afterEach(async () => {
  for (const q of queues) await q.stop();
  removeDir(dir);
});

function queue(execute: JobExecutor, opts: Parameters<typeof openQueue>[3] = {}): BenchJobs {
  const q = openQueue(dir, papers, execute, opts);
  queues.push(q);
  return q;
}

const ended = (j: JobSnapshot) => j.status === 'completed' || j.status === 'failed';


test('20 jobs with a limit of 2: never more than 2 run, all complete, in the order submitted', async () => {
  const run = processExecutor(() => ['sh', '-c', 'echo stage rubric; echo "rubric for $JOB_ID"; sleep 0.03; echo stage grade; echo graded']);
  const started: string[] = [];
  let most = 0;
  const q = queue(async (job, ctx) => {
    started.push(job.paper.paper_id);
    most = Math.max(most, q.list().filter((j) => j.status === 'running').length);
    return run(job, ctx);
  });
  q.start();
  const jobs = q.submit(IDS, CONFIGS);
  const sampler = setInterval(() => (most = Math.max(most, q.list().filter((j) => j.status === 'running').length)), 2);
  const done = await q.settled(jobs.map((j) => j.job_id));
  clearInterval(sampler);
  expect(done.map((j) => j.status)).toEqual(IDS.map(() => 'completed'));
  expect(most).toBe(2);
  expect(started).toEqual(IDS);
  const first = jobs[0]!.job_id;
  expect(q.results(first).results).toMatchObject({ paper_id: IDS[0], leaves: 2, run_dir: join(dir, 'registry', 'papers', IDS[0]!, 'runs', first) });
  expect(q.store.logsAfter(first, -1).map((l) => l.msg)).toEqual([`queued: paper ${IDS[0]}`, `started by process ${process.pid}`, `rubric for ${first}`, 'graded', 'completed']);
  expect(q.get(first)).toMatchObject({ current_stage: 'completed', progress: 1, configs: CONFIGS });
}, 30_000);

test('a job whose executor fails is failed with the one-line message (and hint), logged; the next job still runs', async () => {
  const q = queue(async (job, ctx) => {
    if (job.paper.paper_id === IDS[0]) return processExecutor(() => ['sh', '-c', 'echo stage reproduce_build; echo "warming up" >&2; echo "reproduce.sh missing in submission/" >&2; exit 3'])(job, ctx);
    throw new UnavailableError('docker is not reachable', 'start the docker daemon, or choose another sandbox_kind');
  }).start();
  const [a, b] = q.submit(IDS.slice(0, 2), CONFIGS);
  const [fa, fb] = await q.settled([a!.job_id, b!.job_id]);
  expect(fa).toMatchObject({ status: 'failed', current_stage: 'reproduce_build', progress: 0.25, error: 'reproduce.sh missing in submission/' });
  expect(fb).toMatchObject({ status: 'failed', error: 'docker is not reachable (start the docker daemon, or choose another sandbox_kind)' });
  expect(q.store.logsAfter(b!.job_id, -1).at(-1)).toMatchObject({ level: 'error', msg: `failed: ${fb!.error}` });
  expect(q.results(a!.job_id)).toEqual({ status: 'failed', results: null });
});

test('the stage and progress of a running job are in the store while it runs', async () => {
  const go = join(dir, 'go');
  const q = queue(processExecutor(() => ['sh', '-c', `echo stage reproduce_run; echo building; while [ ! -e ${go} ]; do sleep 0.01; done; echo stage grade`])).start();
  const [job] = q.submit([IDS[0]!], CONFIGS);
  const running = await until('stage reproduce_run', () => (q.get(job!.job_id).current_stage === 'reproduce_run' ? q.get(job!.job_id) : null));
  expect(running).toMatchObject({ status: 'running', progress: 0.55, started_at: expect.any(String), ended_at: null });
  writeFileSync(go, '');
  const [done] = await q.settled([job!.job_id]);
  expect(done).toMatchObject({ status: 'completed', progress: 1 });
});

test('an empty list, an unknown paper and a paper without a PDF are refused, naming it, and nothing is created', () => {
  const q = queue(processExecutor(() => ['true'])).start();
  expect(() => q.submit([], CONFIGS)).toThrow(InputError);
  expect(() => q.submit([], CONFIGS)).toThrow('paper_ids is empty');
  expect(() => q.submit([IDS[0]!, 'ghost'], CONFIGS)).toThrow(NotFoundError);
  expect(() => q.submit([IDS[0]!, 'ghost'], CONFIGS)).toThrow("no paper 'ghost' in the registry");
  let refusal: unknown;
  try {
    q.submit([IDS[0]!, 'no-pdf', IDS[1]!], CONFIGS);
  } catch (err) {
    refusal = err;
  }
  expect(refusal).toBeInstanceOf(InputError);
  expect((refusal as InputError).message).toBe("paper 'no-pdf' has no PDF, and a job needs one");
  expect((refusal as InputError).hint).toContain('import it again with its PDF');
  expect(q.list()).toEqual([]);
  expect(() => q.get('0'.repeat(32))).toThrow(NotFoundError);
});

test('stopping the queue aborts running jobs, fails them naming their stage, and leaves queued ones queued', async () => {
  const pidFile = join(dir, 'job.pid');
  const q = queue(processExecutor(() => ['sh', '-c', `echo $$ > ${pidFile}; echo stage reproduce_run; exec sleep 30`]), { maxRunning: 1 }).start();
  const [a, b] = q.submit(IDS.slice(0, 2), CONFIGS);
  await until('the job to run', () => q.get(a!.job_id).current_stage === 'reproduce_run' && existsSync(pidFile));
  const pid = Number(readFileSync(pidFile, 'utf8'));
  const store = q.store;
  await q.stop();
  expect(store.closed).toBe(true);
  const reopened = queue(processExecutor(() => ['true']), { maxRunning: 0 });
  expect(reopened.get(a!.job_id)).toMatchObject({ status: 'failed', error: `the server stopped while this job was in stage reproduce_run; it can be run again: svc bench run ${IDS[0]} (or POST /api/bench/run)` });
  expect(reopened.get(b!.job_id).status).toBe('queued');
  expect(() => process.kill(pid, 0)).toThrow();
});

test('a job whose process was killed is failed at the next open, naming its stage; the queued ones then run', async () => {
  const submitter = queue(processExecutor(() => ['true']), { claims: 'own' });
  const jobs = submitter.submit(IDS.slice(0, 3), CONFIGS);
  const child = Bun.spawn(['bun', CHILD, 'hold', dir, IDS.join(',')], { stdout: 'pipe', stderr: 'inherit' });
  const reader = child.stdout.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  expect(first.trim()).toBe(`running ${jobs[0]!.job_id}`);
  expect(submitter.get(jobs[0]!.job_id)).toMatchObject({ status: 'running', current_stage: 'reproduce_run' });
  child.kill('SIGKILL');
  await child.exited;

  const q = queue(processExecutor(() => ['sh', '-c', 'echo stage grade; echo graded'])).start();
  const done = await q.settled(jobs.map((j) => j.job_id));
  expect(done.map((j) => j.status)).toEqual(['failed', 'completed', 'completed']);
  expect(done[0]!.error).toBe(`the server (process ${child.pid} on ${HOST}) stopped while this job was in stage reproduce_run; it can be run again: svc bench run ${IDS[0]} (or POST /api/bench/run)`);
  expect(q.store.logsAfter(jobs[0]!.job_id, -1).map((l) => l.msg)).toEqual([`queued: paper ${IDS[0]}`, `started by process ${child.pid}`, 'reproduce.sh is running', done[0]!.error!]);
}, 30_000);

test('two processes draining one store never run a job twice, and both take jobs', async () => {
  const submitter = queue(processExecutor(() => ['true']), { claims: 'own' });
  const record = join(dir, 'runs.txt');
  writeFileSync(record, '');
  const children = [0, 1].map(() => Bun.spawn(['bun', CHILD, 'drain', dir, IDS.join(','), record, String(IDS.length)], { stdout: 'pipe', stderr: 'inherit' }));
  const outputs = children.map((c) => c.stdout.getReader());
  for (const out of outputs) expect(new TextDecoder().decode((await out.read()).value)).toBe('ready\n');
  // one job at a time, so both processes, polling, race for each
  const jobs: JobSnapshot[] = [];
  for (const id of IDS) {
    jobs.push(...submitter.submit([id], CONFIGS));
    await Bun.sleep(15);
  }
  const codes = await Promise.all(children.map((c) => c.exited));
  const rest = await Promise.all(outputs.map(async (o) => new TextDecoder().decode((await o.read()).value)));
  expect(codes).toEqual([0, 0]);
  expect(rest).toEqual(['drained\n', 'drained\n']);
  const runs = readFileSync(record, 'utf8').trim().split('\n').map((l) => l.split(' '));
  expect(runs.map((r) => r[0]).sort()).toEqual(jobs.map((j) => j.job_id).sort());
  expect(new Set(runs.map((r) => r[1]))).toEqual(new Set(children.map((c) => String(c.pid))));
  expect(submitter.list().every((j) => j.status === 'completed')).toBe(true);
}, 30_000);

test('a queue that takes its own jobs leaves the others queued', async () => {
  const other = queue(processExecutor(() => ['true']), { claims: 'own' });
  const [theirs] = other.submit([IDS[0]!], CONFIGS);
  const mine = queue(processExecutor(() => ['true']), { claims: 'own' }).start();
  const [own] = mine.submit([IDS[1]!], CONFIGS);
  await mine.settled([own!.job_id]);
  await Bun.sleep(150);
  expect(mine.get(theirs!.job_id).status).toBe('queued');
  expect(ended(mine.get(own!.job_id))).toBe(true);
});

test('SVC_BENCH_MAX_JOBS: 2 by default, a whole number from 1 to 64 else refused', () => {
  expect(maxJobsFromEnv({})).toBe(2);
  expect(maxJobsFromEnv({ SVC_BENCH_MAX_JOBS: ' 5 ' })).toBe(5);
  for (const bad of ['0', '65', '1.5', 'two']) expect(() => maxJobsFromEnv({ SVC_BENCH_MAX_JOBS: bad })).toThrow(`SVC_BENCH_MAX_JOBS must be a whole number from 1 to 64, got '${bad}'`);
});
