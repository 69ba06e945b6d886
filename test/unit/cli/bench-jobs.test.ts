// `svc bench run|status|logs|results|cost` run from source as their own processes, over a registry
// in a temp directory holding a paper imported by the real registry. The job run here goes through
// the real worker, which refuses the paper's PDF (it has no text): the failure is what is checked.
import { afterEach, beforeEach, expect, test } from 'bun:test';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { estimateCost } from '../../../src/bench/cost.ts';
import { HOST } from '../../../src/bench/jobs/liveness.ts';
import { JOBS_DB, JobStore } from '../../../src/bench/jobs/store.ts';
import { PaperRegistry } from '../../../src/bench/registry.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const MAIN = resolve(import.meta.dir, '../../../src/main.ts');
/** A one-page PDF with no text on it. */
const BLANK_PDF = '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';

let dir: string;
let registry: string;
beforeEach(async () => {
  dir = tempDir();
  registry = join(dir, 'registry');
  const pdf = join(dir, 'blank.pdf');
  writeFileSync(pdf, BLANK_PDF);
  await PaperRegistry.open(registry).import({ source_type: 'local', source: pdf, title: 'Blank', license: 'mit', paper_id: 'p1', pdf_path: pdf }, {});
});
afterEach(() => removeDir(dir));

async function bench(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn(['bun', MAIN, 'bench', ...args, '--registry', registry], { cwd: dir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, NO_COLOR: '1' }, stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

const json = (r: { stdout: string }) => JSON.parse(r.stdout);

test('status of a registry without jobs says so and creates no job store', async () => {
  expect(await bench('status')).toEqual({ code: 0, stdout: 'no benchmark jobs\n', stderr: '' });
  expect(json(await bench('status', '--json'))).toEqual({ jobs: [] });
  expect(existsSync(join(registry, JOBS_DB))).toBe(false);
  const unknown = await bench('logs', 'f'.repeat(32));
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain(`no benchmark job '${'f'.repeat(32)}'`);
}, 30_000);

test('cost and a dry run print the estimate of the flags and --config; bad flags and configs are refused', async () => {
  const config = join(dir, 'configs.json');
  writeFileSync(config, JSON.stringify({ rubric_config: { two_stage: false }, judge_config: { n_runs: 5 } }));
  const estimate = json(await bench('cost', '--config', config, '--n-runs', '2', '--time-limit', '600', '--json'));
  expect(estimate).toEqual(estimateCost({ rubric: { two_stage: false }, reproduce: { time_limit_sec: 600 }, judge: { n_runs: 2 } }));
  const dry = await bench('run', 'p1', 'p1', '--dry-run', '--json');
  expect(json(dry)).toMatchObject({ dry_run: true, job_ids: [], papers: 2 });
  expect(json(await bench('status', '--json'))).toEqual({ jobs: [] });

  for (const [args, message] of [
    [['cost', '--time-limit', 'soon'], "--time-limit must be a whole number, got 'soon'"],
    [['cost', '--config', join(dir, 'none.json')], 'no such file'],
    [['run', 'ghost'], "no paper 'ghost' in the registry"],
    [['run', 'p1', '--n-runs', '99'], "the run's configs are not valid: /judge_config/n_runs"],
  ] as [string[], string][]) {
    const r = await bench(...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  }
  writeFileSync(config, '{"judge_config": ');
  expect((await bench('cost', '--config', config)).stderr).toContain('is not JSON');
  expect(json(await bench('status', '--json'))).toEqual({ jobs: [] });
}, 30_000);

test('--detach creates the job queued and says no dashboard will take it', async () => {
  const r = await bench('run', 'p1', '--detach', '--json');
  expect(r.code).toBe(0);
  const [id] = json(r).job_ids as string[];
  expect(r.stderr).toContain('no dashboard is running on this registry');
  expect(json(await bench('status', id!, '--json'))).toMatchObject({ job_id: id, paper_id: 'p1', status: 'queued' });
  expect((await bench('logs', id!)).stdout).toContain('info     queued: paper p1');
  const results = await bench('results', id!);
  expect(results.code).toBe(1);
  expect(results.stderr).toContain(`results not available: job ${id} is queued`);
}, 30_000);

test('a job run here prints its stage and lines as they come; its failure is the exit code, the status, the log and the results refusal', async () => {
  const r = await bench('run', 'p1', '--time-limit', '60');
  expect(r.code).toBe(1);
  expect(r.stdout).toContain('p1  stage rubric (5%)');
  expect(r.stdout).toContain('info     queued: paper p1');
  expect(r.stdout).toMatch(/error {4}failed: the paper .*paper\.pdf has no readable text/);
  expect(r.stdout).toMatch(/p1 {2}failed: the paper .*has no readable text/);
  const [job] = json(await bench('status', '--json')).jobs;
  expect(job).toMatchObject({ paper_id: 'p1', status: 'failed', configs: { reproduce: { time_limit_sec: 60 } } });
  const follow = await bench('logs', job.job_id, '-f', '--json');
  expect(follow.code).toBe(1);
  const lines = follow.stdout.trim().split('\n').map((l) => JSON.parse(l));
  expect(lines.map((l) => l.seq)).toEqual([...lines.keys()]);
  expect(lines.at(-1)).toMatchObject({ level: 'error', msg: expect.stringMatching(/^failed: the paper .* has no readable text/) });
  const table = await bench('status');
  expect(table.stdout).toMatch(new RegExp(`${job.job_id}\\s+p1\\s+failed\\s+rubric\\s+5%`));
  expect((await bench('results', job.job_id)).stderr).toContain('is failed');
}, 30_000);

test('status, logs and results fail a job whose process is gone before answering: it is not shown running', async () => {
  const gone = Bun.spawn(['true']);
  await gone.exited;
  const store = JobStore.open(registry);
  const jobId = 'd'.repeat(32);
  store.insertJobs([{ job_id: jobId, paper_id: 'p1', configs: { rubric: {}, reproduce: {}, judge: {} } }]);
  store.claimNext({ pid: gone.pid, host: HOST, token: 'g'.repeat(32) }, 1);
  store.close();
  expect(json(await bench('status', jobId, '--json'))).toMatchObject({ status: 'failed', current_stage: 'queued', error: expect.stringContaining(`the server (process ${gone.pid} on ${HOST}) stopped`) });
});

test('a paper with a queued job is not deleted: the refusal names the job and the fix', async () => {
  const submitted = json(await bench('run', 'p1', '--detach', '--json'));
  const refused = await bench('delete', 'p1');
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(`paper 'p1' has jobs that have not ended: ${submitted.job_ids[0]} (queued)`);
  expect(refused.stderr).toContain('wait for them to end');
  expect(PaperRegistry.open(registry).get('p1')).not.toBeNull();
});

test('cost opens no job store', async () => {
  expect((await bench('cost', '--json')).code).toBe(0);
  expect(existsSync(join(registry, JOBS_DB))).toBe(false);
});
