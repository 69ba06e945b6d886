// One benchmark job end to end as the dashboard runs it: a real PDF (pdflatex) imported into the
// workspace's paper registry, a job queued by another queue, picked up by the dashboard at start,
// run by the real worker on the local sandbox with the scripted model server as every model, its
// log followed over the route's event stream until done, and its results read back.
import { afterEach, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { openBenchJobs } from '../../../src/bench/jobs/wiring.ts';
import { PaperRegistry } from '../../../src/bench/registry.ts';
import { createApp } from '../../../src/server/app.ts';
import { ServerContext } from '../../../src/server/context.ts';
import { lacks } from '../../support/components.ts';
import { paperPdf } from '../../support/paper-pdf.ts';
import { readEvents, type ServerEvent } from '../../support/event-stream.ts';
import { seedBundle } from '../../support/shell-sort-bundle.ts';
import { type Fixture, replicateFixture } from '../skills/replicate/replicate-env.ts';

let f: Fixture;
let ctx: ServerContext | null = null;
afterEach(async () => {
  await ctx?.stopBenchJobs();
  f.stop();
});

describe.skipIf(lacks('latex'))('a benchmark job end to end', () => {
  test('queued, picked up by the dashboard at start, run through the three stages, followed live, its results served', async () => {
    f = replicateFixture();
    const workspace = join(f.dir, 'workspace');
    const registryDir = join(workspace, 'paper_registry');
    const pdf = paperPdf(f.dir);
    await PaperRegistry.open(registryDir).import({ source_type: 'local', source: pdf, title: 'Fewer comparisons with geometric Shell sort', license: 'cc-by-4.0', paper_id: 'shell-sort', pdf_path: pdf }, {});
    // the job's run directory is its checkpoint: none of the fixture's
    const { SVC_CHECKPOINT_DIR: _, ...env } = f.env({ SVC_MODEL_REPLICATE: 'replicator-model', SVC_MODEL_JUDGE: 'judge-model' });

    const submitter = openBenchJobs(env, registryDir, 'own');
    const [job] = submitter.submit(['shell-sort'], { rubric: {}, reproduce: { sandbox_kind: 'local', time_limit_sec: 600 }, judge: { n_runs: 1 } });
    await submitter.stop();
    const id = job!.job_id;
    const runDir = PaperRegistry.open(registryDir).runDir('shell-sort', id);
    seedBundle(join(runDir, 'repro_sandbox'));

    ctx = new ServerContext(env, f.dir, join(workspace, 'checkpoints'), null);
    ctx.resumeBenchJobs();
    const app = createApp(ctx);
    const reader = readEvents(await app.handle(new Request(`http://127.0.0.1/api/bench/run/${id}/logs`)));
    const events: ServerEvent[] = [];
    for (let ev = await reader.message(); ev !== null; ev = await reader.message()) events.push(ev);

    const logs = events.filter((e) => e.event === 'log');
    expect(logs.map((e) => Number(e.id))).toEqual([...logs.keys()]);
    expect(logs.map((e) => e.data.msg).slice(0, 3)).toEqual(['queued: paper shell-sort', `started by process ${process.pid}`, expect.stringMatching(/^rubric: generating/)]);
    expect(logs.filter((e) => e.data.level === 'error')).toEqual([]);
    expect(events.at(-1)).toEqual({ event: 'done', data: { status: 'completed' } });

    const snapshot = await (await app.handle(new Request(`http://127.0.0.1/api/bench/run/${id}`))).json();
    expect(snapshot).toMatchObject({ status: 'completed', current_stage: 'completed', progress: 1, error: null, log_count: logs.length });
    const results = await app.handle(new Request(`http://127.0.0.1/api/bench/run/${id}/results`));
    expect(results.status).toBe(200);
    const r = (await results.json()) as { run_dir: string; leaves: number; ors_score: number };
    expect(r).toMatchObject({ paper_id: 'shell-sort', run_dir: runDir, leaves: 11 });
    expect(r.ors_score).toBeGreaterThan(0.5);

    // its audit report, made on request, and each file fetched from the URL the answer gives
    const made = await app.handle(new Request(`http://127.0.0.1/api/bench/run/${id}/report?languages=en&formats=md,html,pdf`));
    expect(made.status).toBe(200);
    const report = (await made.json()) as { status: string; harvest: { ors_score: number }; download_urls: Record<string, string>; output_root: string };
    expect(report).toMatchObject({ status: 'ok', harvest: { ors_score: r.ors_score }, output_root: join(registryDir, 'reports', id) });
    expect(Object.keys(report.download_urls).sort()).toEqual(['en/html', 'en/md', 'en/pdf']);
    const types = { 'en/md': 'text/markdown', 'en/html': 'text/html', 'en/pdf': 'application/pdf' } as Record<string, string>;
    for (const [key, url] of Object.entries(report.download_urls)) {
      const file = await app.handle(new Request(`http://127.0.0.1${url}`));
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toContain(types[key] as string);
      expect(file.headers.get('content-security-policy')).toContain("default-src 'none'");
      const bytes = new Uint8Array(await file.arrayBuffer());
      if (key === 'en/pdf') expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
      else expect(new TextDecoder().decode(bytes)).toContain('shell-sort');
    }
    // what a report request may not reach: another directory, an unknown language, a root outside the reports
    for (const [path, status] of [
      [`/api/bench/run/${id}/report/en/..%2F..%2Fjobs.sqlite`, 400],
      [`/api/bench/run/${id}/report/en/figures/..%2F..%2F..%2Fjobs.sqlite`, 400],
      [`/api/bench/run/${id}/report?languages=xx`, 400],
      [`/api/bench/run/${id}/report?output_root=..%2Fpapers`, 400],
    ] as const) {
      const res = await app.handle(new Request(`http://127.0.0.1${path}`));
      expect([path, res.status]).toEqual([path, status]);
      expect(((await res.json()) as { error: string }).error).not.toBe('');
    }
  }, 180_000);
});
