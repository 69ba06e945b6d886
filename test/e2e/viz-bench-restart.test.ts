// The dashboard killed with SIGKILL while a benchmark job runs, then started again: the job that
// was running is failed, naming its stage, with its log kept; the job that was queued runs.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { lacks } from '../support/components.ts';
import { paperPdf } from '../support/paper-pdf.ts';
import { readEvents, type ServerEvent } from '../support/event-stream.ts';
import { type ModelServer, startModelServer } from '../support/model-server.ts';
import { removeDir, tempDir } from '../support/svc.ts';
import { until } from '../support/until.ts';
import { startViz, type Viz } from '../support/viz.ts';

let dir: string;
let model: ModelServer;
let viz: Viz | undefined;
beforeEach(() => {
  dir = tempDir();
  mkdirSync(join(dir, 'workspace', 'checkpoints'), { recursive: true });
  // a model that never answers in time: the job stays in its first stage
  model = startModelServer([], { respond: () => ({ text: '{}', delayMs: 120_000 }) });
});
afterEach(async () => {
  await viz?.stop();
  viz = undefined;
  model.stop();
  removeDir(dir);
});

const start = async () => {
  viz = await startViz([], { cwd: dir, env: { SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${model.url}/v1`, SVC_MODEL: 'slow-model', SVC_LLM_MAX_RETRIES: '0', SVC_BENCH_MAX_JOBS: '1' } });
  return viz;
};


/** The job's snapshot once `ok` holds for it. */
const jobWhen = (v: Viz, id: string | undefined, what: string, ok: (job: Record<string, unknown>) => boolean) =>
  until(what, async () => {
    const r = await v.get(`/api/bench/run/${id}`);
    return ok(r.body) ? r : null;
  }, 30_000, 100);

describe.skipIf(lacks('latex'))('the dashboard killed mid-job', () => {
  test('restarted: the running job is failed naming its stage, its log kept; the queued job runs', async () => {
    const pdf = paperPdf(dir);
    let v = await start();
    for (const id of ['first', 'second']) expect((await v.post('/api/bench/papers/import', { source_type: 'local', source: pdf, title: id, paper_id: id, pdf_path: pdf })).status).toBe(200);
    const run = await v.post('/api/bench/run', { paper_ids: ['first', 'second'], reproduce_config: { sandbox_kind: 'local' } });
    expect(run.status).toBe(200);
    const [first, second] = run.body.job_ids as string[];
    await jobWhen(v, first, 'the first job in its rubric stage', (j) => j.status === 'running' && j.current_stage === 'rubric' && model.requests.length > 0);
    expect((await v.get(`/api/bench/run/${second}`)).body.status).toBe('queued');
    const before = (await v.get(`/api/bench/run/${first}`)).body.log_count as number;

    v.proc.kill('SIGKILL');
    await v.proc.exited;
    v = await start();

    const lost = await jobWhen(v, first, 'the lost job failed', (j) => j.status === 'failed');
    expect(lost.body).toMatchObject({ status: 'failed', current_stage: 'rubric', progress: 0.05 });
    expect(lost.body.error).toContain('rubric');
    expect(lost.body.error).toContain('again');
    // every line written before the kill is still there, then the reason, then done
    const events: ServerEvent[] = [];
    const reader = readEvents(await v.req(`/api/bench/run/${first}/logs`));
    for (let ev = await reader.message(); ev !== null; ev = await reader.message()) events.push(ev);
    const logs = events.filter((e) => e.event === 'log');
    expect(logs.length).toBeGreaterThan(before);
    expect(logs.map((e) => Number(e.id))).toEqual([...logs.keys()]);
    expect(events.at(-1)).toEqual({ event: 'done', data: { status: 'failed' } });
    expect((await v.get(`/api/bench/run/${first}/results`)).body).toEqual({ error: 'results not available', status: 'failed' });

    await jobWhen(v, second, 'the queued job running', (j) => j.status === 'running');
  }, 120_000);
});
