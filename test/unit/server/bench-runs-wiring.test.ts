// The dashboard's own job queue, as `svc viz` opens it: on the workspace's paper registry, with the
// real worker (which refuses the paper's blank PDF, so a job fails fast and says why).
import { afterEach, beforeEach, expect, test } from 'bun:test';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JOBS_DB, JobStore } from '../../../src/bench/jobs/store.ts';
import { openBenchJobs } from '../../../src/bench/jobs/wiring.ts';
import { PaperRegistry } from '../../../src/bench/registry.ts';
import { createApp } from '../../../src/server/app.ts';
import type { JobSnapshot } from '../../../src/schema/bench-api.ts';
import { ServerContext } from '../../../src/server/context.ts';
import { log } from '../../../src/core/log.ts';
import type { LogObject } from 'consola/core';
import { removeDir, tempDir } from '../../support/svc.ts';

const BLANK_PDF = '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';

let dir: string;
let registry: string;
let ctx: ServerContext;
const env = () => ({ PATH: process.env.PATH ?? '', HOME: dir });
beforeEach(async () => {
  dir = tempDir();
  registry = join(dir, 'workspace', 'paper_registry');
  const pdf = join(dir, 'blank.pdf');
  writeFileSync(pdf, BLANK_PDF);
  await PaperRegistry.open(registry).import({ source_type: 'local', source: pdf, title: 'Blank', license: 'mit', paper_id: 'p1', pdf_path: pdf }, {});
  ctx = new ServerContext(env(), dir, join(dir, 'workspace', 'checkpoints'), null);
});
afterEach(async () => {
  await ctx.stopBenchJobs();
  removeDir(dir);
});

/** The job once ended, read through a store of its own: reading asks the dashboard for nothing. */
async function ended(jobId: string): Promise<JobSnapshot | null> {
  const store = JobStore.open(registry);
  try {
    for (;;) {
      const snap = store.get(jobId);
      if (snap?.status === 'failed' || snap?.status === 'completed') return snap;
      await Bun.sleep(20);
    }
  } finally {
    store.close();
  }
}

test('a run submitted to the dashboard runs on <workspace>/paper_registry through the real worker', async () => {
  const app = createApp(ctx);
  const res = await app.handle(new Request('http://127.0.0.1/api/bench/run', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ paper_ids: ['p1'] }) }));
  expect(res.status).toBe(200);
  const { job_ids } = (await res.json()) as { job_ids: string[] };
  expect(await ended(job_ids[0]!)).toMatchObject({ status: 'failed', error: expect.stringContaining('has no readable text') });
});

test('a dashboard starting on a registry with queued jobs runs them without waiting for a request', async () => {
  const submitter = openBenchJobs(env(), registry, 'own');
  const [job] = submitter.submit(['p1'], { rubric: {}, reproduce: {}, judge: {} });
  await submitter.stop();
  ctx.resumeBenchJobs();
  expect(await ended(job!.job_id)).toMatchObject({ status: 'failed', current_stage: 'rubric', error: expect.stringContaining('has no readable text') });
});

test('a bad SVC_BENCH_MAX_JOBS is refused by the routes, naming it; the dashboard still starts', async () => {
  await ctx.stopBenchJobs();
  JobStore.open(registry).close();
  ctx = new ServerContext({ ...env(), SVC_BENCH_MAX_JOBS: '0' }, dir, join(dir, 'workspace', 'checkpoints'), null);
  // the registry keeps jobs, so the queue is opened at start: the refusal is told, and the start goes on
  const told: string[] = [];
  const reporter = { log: (entry: LogObject) => told.push(`${entry.tag}: ${entry.args.join(' ')}`) };
  log.addReporter(reporter);
  try {
    ctx.resumeBenchJobs();
  } finally {
    log.removeReporter(reporter);
  }
  expect(told).toEqual(["svc viz: benchmark jobs not resumed: SVC_BENCH_MAX_JOBS must be a whole number from 1 to 64, got '0'"]);
  const res = await createApp(ctx).handle(new Request('http://127.0.0.1/api/bench/run', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ paper_ids: ['p1'] }) }));
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({ error: "SVC_BENCH_MAX_JOBS must be a whole number from 1 to 64, got '0'" });
});

test('a paper with a queued or running job cannot be deleted: 409 naming the jobs; once they ended it can', async () => {
  const submitter = openBenchJobs(env(), registry, 'own');
  const [job] = submitter.submit(['p1'], { rubric: {}, reproduce: {}, judge: {} });
  const app = createApp(ctx);
  const del = () => app.handle(new Request('http://127.0.0.1/api/bench/papers/p1/delete', { method: 'POST' }));
  const refused = await del();
  expect(refused.status).toBe(409);
  expect(await refused.json()).toEqual({ error: `paper 'p1' has jobs that have not ended: ${job!.job_id} (queued) (wait for them to end (svc bench status), or stop the process running them, then delete it)` });
  expect(PaperRegistry.open(registry).get('p1')).not.toBeNull();
  submitter.store.fail(job!.job_id, null, 'given up', []);
  await submitter.stop();
  const done = await del();
  expect(await done.json()).toEqual({ deleted: true, paper_id: 'p1' });
});

test('deleting a paper of a registry without jobs creates no job store', async () => {
  const res = await createApp(ctx).handle(new Request('http://127.0.0.1/api/bench/papers/p1/delete', { method: 'POST' }));
  expect(await res.json()).toEqual({ deleted: true, paper_id: 'p1' });
  expect(existsSync(join(registry, JOBS_DB))).toBe(false);
});
