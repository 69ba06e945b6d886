// The benchmark run routes in process with the real dashboard app, over a job queue on a temp
// registry whose jobs run real processes: submit, snapshot, results, the live log stream and its
// resumption, the cost estimate, and every refusal.
import { afterEach, beforeEach, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchJobs } from '../../../src/bench/jobs/queue.ts';
import { createApp } from '../../../src/server/app.ts';
import { ServerContext } from '../../../src/server/context.ts';
import { estimateCost, estimateRun } from '../../../src/bench/cost.ts';
import { openQueue, paperRegistry, processExecutor } from '../../support/bench-jobs.ts';
import { readEvents, type ServerEvent } from '../../support/event-stream.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
let ctx: ServerContext;
let app: ReturnType<typeof createApp>;
let jobs: BenchJobs;

beforeEach(async () => {
  dir = tempDir();
  ctx = new ServerContext({ PATH: process.env.PATH ?? '', HOME: dir }, dir, join(dir, 'workspace', 'checkpoints'), null);
  const go = join(dir, 'go');
  // paper `slow` waits for the file `go`; the others print five lines at once
  const script = (id: string) => (id === 'slow' ? `echo stage rubric; echo first; while [ ! -e ${go} ]; do sleep 0.01; done; echo second; echo stage grade` : 'echo stage rubric; for i in 1 2 3 4 5; do echo "line $i"; done; echo stage grade');
  const papers = await paperRegistry(dir, ['p1', 'p2', 'slow'], ['no-pdf']);
  ctx.benchJobsOpener = () => (jobs = openQueue(dir, papers, processExecutor((id) => ['sh', '-c', script(id)])));
  app = createApp(ctx);
});
afterEach(async () => {
  await ctx.stopBenchJobs();
  removeDir(dir);
});

const post = (path: string, body: unknown) => app.handle(new Request(`http://127.0.0.1${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) }));
const get = (path: string, headers: Record<string, string> = {}) => app.handle(new Request(`http://127.0.0.1${path}`, { headers }));

async function submit(ids: string[]): Promise<string[]> {
  const res = await post('/api/bench/run', { paper_ids: ids, reproduce_config: { time_limit_sec: 600 } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { job_ids: string[] }).job_ids;
}

async function allEvents(res: Response): Promise<ServerEvent[]> {
  const reader = readEvents(res);
  const out: ServerEvent[] = [];
  for (let ev = await reader.message(); ev !== null; ev = await reader.message()) out.push(ev);
  return out;
}

const logIds = (events: ServerEvent[]) => events.filter((e) => e.event === 'log').map((e) => Number(e.id));

test('a run creates one job per paper and answers with their ids and one paper\'s estimate; the job is shown and its results given once completed', async () => {
  const res = await post('/api/bench/run', { paper_ids: ['p1', 'p2'], rubric_config: { two_stage: false }, judge_config: { n_runs: 2 }, ui_field: 'ignored' });
  const body = (await res.json()) as { dry_run: boolean; job_ids: string[]; estimated_cost: unknown };
  expect(body.dry_run).toBe(false);
  expect(body.job_ids).toHaveLength(2);
  for (const id of body.job_ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
  expect(body.estimated_cost).toEqual(estimateCost({ rubric: { two_stage: false }, reproduce: {}, judge: { n_runs: 2 } }));
  await jobs.settled(body.job_ids);
  const snap = await (await get(`/api/bench/run/${body.job_ids[0]}`)).json();
  expect(snap).toMatchObject({ job_id: body.job_ids[0], paper_id: 'p1', status: 'completed', current_stage: 'completed', progress: 1, configs: { rubric: { two_stage: false }, reproduce: {}, judge: { n_runs: 2 } }, error: null });
  const results = await get(`/api/bench/run/${body.job_ids[0]}/results`);
  expect(results.status).toBe(200);
  expect(await results.json()).toMatchObject({ paper_id: 'p1', leaves: 5 });
});

test('a dry run creates nothing and answers with the estimate, the paper count and the totals', async () => {
  const res = await post('/api/bench/run', { paper_ids: ['p1', 'p2'], dry_run: true });
  expect(await res.json()).toEqual({ ...estimateRun(2, { rubric: {}, reproduce: {}, judge: {} }), job_ids: [] });
  expect(jobs.list()).toEqual([]);
  const refused = await post('/api/bench/run', { paper_ids: ['ghost'], dry_run: true });
  expect(refused.status).toBe(404);
});

test('POST /api/bench/cost-estimate projects one paper', async () => {
  const res = await post('/api/bench/cost-estimate', { reproduce_config: { time_limit_sec: 3600 }, judge_config: { n_runs: 3 } });
  expect(await res.json()).toEqual({ wall_time_sec: 300 + 3600 + 180, llm_cost_usd: 2.75, breakdown: { rubric: { wall_time_sec: 300, cost_usd: 0.45 }, reproduce: { wall_time_sec: 3600, cost_usd: 2 }, judge: { wall_time_sec: 180, cost_usd: 0.3 } } });
});

test('refused runs create nothing: empty list, unknown paper, paper without a PDF, malformed body, malformed JSON', async () => {
  const cases: [unknown, number, string][] = [
    [{ paper_ids: [] }, 400, 'paper_ids is empty'],
    [{ paper_ids: ['p1', 'ghost'] }, 404, "no paper 'ghost' in the registry"],
    [{ paper_ids: ['p1', 'no-pdf'] }, 400, "paper 'no-pdf' has no PDF"],
    [{ paper_ids: 'p1' }, 400, 'paper_ids'],
    [{ paper_ids: ['p1'], reproduce_config: { time_limit_sec: -5 } }, 400, 'time_limit_sec'],
    ['{"paper_ids": [', 400, 'malformed request body'],
  ];
  for (const [body, status, message] of cases) {
    const res = await post('/api/bench/run', body);
    expect(res.status).toBe(status);
    expect(((await res.json()) as { error: string }).error).toContain(message);
  }
  const bad = await post('/api/bench/cost-estimate', '{nope');
  expect(bad.status).toBe(400);
  expect(jobs.list()).toEqual([]);
});

test('an unknown job is 404 JSON on every route; results of a job not completed are 409 with its status', async () => {
  for (const path of ['', '/results', '/logs', '/report', '/report/en/report.md']) {
    const res = await get(`/api/bench/run/${'0'.repeat(32)}${path}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(((await res.json()) as { error: string }).error).toContain('no benchmark job');
  }
  const [slow] = await submit(['slow']);
  await Bun.sleep(0);
  const res = await get(`/api/bench/run/${slow}/results`);
  expect(res.status).toBe(409);
  expect(await res.json()).toEqual({ error: 'results not available', status: jobs.get(slow!).status });
  const report = await get(`/api/bench/run/${slow}/report`);
  expect(report.status).toBe(409);
  expect(await report.json()).toEqual({ error: 'report not available', status: jobs.get(slow!).status });
  writeFileSync(join(dir, 'go'), '');
  await jobs.settled([slow!]);
});

test('a report file named with a malformed percent-escape is 400 naming it', async () => {
  const [id] = await submit(['p1']);
  await jobs.settled([id!]);
  const res = await get(`/api/bench/run/${id}/report/en/%E0%A4%A`);
  expect(res.status).toBe(400);
  expect(((await res.json()) as { error: string }).error).toStartWith("report file '%E0%A4%A' is not valid URL encoding");
});

test('the log stream of an ended job: the whole log, then done, then the end; resumed after Last-Event-ID 0, middle, last and beyond', async () => {
  const [id] = await submit(['p1']);
  await jobs.settled([id!]);
  const all = await get(`/api/bench/run/${id}/logs`);
  expect(all.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  const events = await allEvents(all);
  const count = jobs.get(id!).log_count;
  expect(logIds(events)).toEqual([...Array(count).keys()]);
  expect(events.find((e) => e.id === '2')?.data).toEqual({ ts: expect.any(String), level: 'info', msg: 'line 1' });
  expect(events.at(-1)).toEqual({ event: 'done', data: { status: 'completed' } });
  const middle = Math.floor(count / 2);
  for (const [after, expected] of [
    [0, [...Array(count).keys()].slice(1)],
    [middle, [...Array(count).keys()].slice(middle + 1)],
    [count - 1, []],
    [count + 50, []],
  ] as [number, number[]][]) {
    const resumed = await allEvents(await get(`/api/bench/run/${id}/logs`, { 'last-event-id': String(after) }));
    expect(logIds(resumed)).toEqual(expected);
    expect(resumed.at(-1)?.event).toBe('done');
  }
  // ?since=N starts at line N; with Last-Event-ID too, the later position wins
  expect(logIds(await allEvents(await get(`/api/bench/run/${id}/logs?since=3`)))).toEqual([...Array(count).keys()].slice(3));
  expect(logIds(await allEvents(await get(`/api/bench/run/${id}/logs?since=1`, { 'last-event-id': '4' })))).toEqual([...Array(count).keys()].slice(5));
});

test('a malformed Last-Event-ID or since is 400', async () => {
  const [id] = await submit(['p1']);
  for (const [query, headers] of [
    ['', { 'last-event-id': 'abc' }],
    ['', { 'last-event-id': '-1' }],
    ['?since=x', {}],
  ] as [string, Record<string, string>][]) {
    const res = await get(`/api/bench/run/${id}/logs${query}`, headers);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain('is not a log line index');
  }
});

test('the log stream of a running job gives lines as they are written, then done when it ends', async () => {
  const [id] = await submit(['slow']);
  const reader = readEvents(await get(`/api/bench/run/${id}/logs`));
  const seen: string[] = [];
  for (;;) {
    const ev = await reader.message();
    seen.push(ev?.data?.msg);
    if (ev?.data?.msg === 'first') break;
  }
  expect(seen).toEqual(['queued: paper slow', `started by process ${process.pid}`, 'first']);
  writeFileSync(join(dir, 'go'), '');
  const rest: ServerEvent[] = [];
  for (let ev = await reader.message(); ev !== null; ev = await reader.message()) rest.push(ev);
  expect(rest.map((e) => e.data)).toEqual([{ ts: expect.any(String), level: 'info', msg: 'second' }, { ts: expect.any(String), level: 'success', msg: 'completed' }, { status: 'completed' }]);
  expect(reader.closed()).toBe(true);
});

test('stopping the dashboard fails a running job as stopped, and its stream ends with done', async () => {
  const [id] = await submit(['slow']);
  const reader = readEvents(await get(`/api/bench/run/${id}/logs`));
  while ((await reader.message())?.data?.msg !== 'first') {}
  await ctx.stopBenchJobs();
  const rest: ServerEvent[] = [];
  for (let ev = await reader.message(); ev !== null; ev = await reader.message()) rest.push(ev);
  expect(rest.at(-2)?.data?.msg).toContain('the server stopped while this job was in stage rubric');
  expect(rest.at(-1)).toEqual({ event: 'done', data: { status: 'failed' } });
});

test('POST /api/bench/cost-estimate refuses bodies of the wrong types, naming the field', async () => {
  const cases: [unknown, string][] = [
    [{ reproduce_config: { time_limit_sec: 'an hour' } }, 'time_limit_sec'],
    [{ reproduce_config: { time_limit_sec: -5 } }, 'time_limit_sec'],
    [{ judge_config: { n_runs: 'two' } }, 'n_runs'],
    [{ rubric_config: 'two_stage' }, 'rubric_config'],
    [{ judge_config: [1, 2] }, 'judge_config'],
    [[], 'body'],
  ];
  for (const [body, field] of cases) {
    const res = await post('/api/bench/cost-estimate', body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain(field);
  }
});

test('a client leaving the log stream of a running job releases its listener on the store', async () => {
  const [id] = await submit(['slow']);
  const abort = new AbortController();
  const res = await app.handle(new Request(`http://127.0.0.1/api/bench/run/${id}/logs`, { signal: abort.signal }));
  const reader = res.body!.getReader();
  // the stream's opening, then the job's first lines: the follower is listening
  await reader.read();
  await reader.read();
  expect(jobs.store.listening(id!)).toBe(1);
  abort.abort();
  await reader.cancel();
  for (let i = 0; i < 100 && jobs.store.listening(id!) > 0; i++) await Bun.sleep(10);
  expect(jobs.store.listening(id!)).toBe(0);
  writeFileSync(join(dir, 'go'), '');
  await jobs.settled([id!]);
});

test('a bench request while the dashboard stops is refused with 503, and opens no second queue', async () => {
  const [id] = await submit(['slow']);
  const first = jobs;
  const stopping = ctx.stopBenchJobs();
  const during = await post('/api/bench/run', { paper_ids: ['p1'] });
  await stopping;
  const after = await get(`/api/bench/run/${id}`);
  for (const res of [during, after]) {
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: 'the dashboard is stopping: benchmark jobs are not taken now (send the request again once svc viz runs again)' });
  }
  expect(jobs).toBe(first);
  expect(first.store.closed).toBe(true);
});

test('every job is listed, newest first, with its snapshot', async () => {
  expect(await (await get('/api/bench/jobs')).json()).toEqual({ jobs: [] });
  const first = (await submit(['p1']))[0] as string;
  const second = (await submit(['p2']))[0] as string;
  await jobs.settled([first, second]);
  const listed = (await (await get('/api/bench/jobs')).json()) as { jobs: { job_id: string; paper_id: string; status: string; progress: number }[] };
  expect(listed.jobs.map((j) => [j.job_id, j.paper_id, j.status, j.progress])).toEqual([
    [second, 'p2', 'completed', 1],
    [first, 'p1', 'completed', 1],
  ]);
  expect(listed.jobs[0] as unknown).toEqual(await (await get(`/api/bench/run/${second}`)).json());
});
