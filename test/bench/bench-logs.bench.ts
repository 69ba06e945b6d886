// A benchmark job's live log: the time from a line appended by a running job to its arrival at a
// client of GET /api/bench/run/<job_id>/logs on a dashboard started in this process, median over
// LINES lines appended one at a time; against a bare Bun.serve event stream that pushes a line the
// moment it is given, measured the same way in the same run. Then the same for lines appended by
// another connection to the store (as another process would), which a follower finds by polling:
// each is appended just after the poll that found the last, so this is the worst case, about one
// poll interval (FOLLOW_POLL_MS).
import { join } from 'node:path';
import { JobStore } from '../../src/bench/jobs/store.ts';
import type { JobContext } from '../../src/bench/jobs/types.ts';
import { ServerContext } from '../../src/server/context.ts';
import { startDashboard } from '../../src/server/serve.ts';
import { openQueue, paperRegistry, results } from '../support/bench-jobs.ts';
import { readEvents } from '../support/event-stream.ts';
import { removeDir, tempDir } from '../support/svc.ts';
import { median, report } from './measure.ts';

const LINES = Number(process.env.BENCH_LINES ?? 200);
const CROSS_LINES = Number(process.env.BENCH_CROSS_LINES ?? 40);
/** lines are spaced, as a job's are: each is its own append, never a batch */
const GAP_MS = 5;

/** Latency of each of `n` lines: `append(i)` is timed from just before it to the event's arrival. */
async function measure(stream: Response, n: number, append: (i: number) => void): Promise<number[]> {
  const events = readEvents(stream);
  const arrived = new Map<string, number>();
  let want = null as { msg: string; resolve: () => void } | null;
  // read until the servers stop, which resets the connections left open
  void (async () => {
    for (let ev = await events.message(); ev !== null; ev = await events.message()) {
      const msg = ev.data?.msg;
      if (typeof msg !== 'string') continue;
      arrived.set(msg, performance.now());
      if (want?.msg === msg) want.resolve();
    }
  })().catch(() => {});
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const msg = `line ${i}`;
    const got = new Promise<void>((resolve) => (want = { msg, resolve }));
    const t0 = performance.now();
    append(i);
    await got;
    out.push((arrived.get(msg) ?? Number.NaN) - t0);
    await Bun.sleep(GAP_MS);
  }
  return out;
}

/** The baseline: an event stream whose controller is handed to the benchmark, which enqueues each line itself. */
async function bareServer(): Promise<{ url: string; push: (i: number) => void; stop: () => void }> {
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  const encoder = new TextEncoder();
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    idleTimeout: 0,
    fetch: () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(c) {
            controller = c;
            c.enqueue(encoder.encode('retry: 2000\n\n'));
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      ),
  });
  const push = (i: number) => controller?.enqueue(encoder.encode(`id: ${i}\nevent: log\ndata: ${JSON.stringify({ ts: new Date().toISOString(), level: 'info', msg: `line ${i}` })}\n\n`));
  return { url: `http://127.0.0.1:${server.port}/`, push, stop: () => server.stop(true) };
}

const dir = tempDir('svc-bench-');
const ctx = new ServerContext({ PATH: process.env.PATH ?? '', HOME: dir }, dir, join(dir, 'workspace', 'checkpoints'), null);
let job: JobContext | null = null;
let finish: () => void = () => {};
const ended = new Promise<void>((resolve) => (finish = resolve));
const papers = await paperRegistry(join(dir, 'ws'), ['paper']);
ctx.benchJobsOpener = () =>
  openQueue(join(dir, 'ws'), papers, async (j, c) => {
    job = c;
    await ended;
    return results(j.paper.paper_id, j.runDir, 0);
  });
const dashboard = startDashboard(ctx, { host: '127.0.0.1', port: 0 });
const bare = await bareServer();
try {
  const [created] = ctx.benchJobs().submit(['paper'], { rubric: {}, reproduce: {}, judge: {} });
  while (!job) await Bun.sleep(5);
  const running = job as JobContext;
  const logsUrl = `${dashboard.url}/api/bench/run/${created!.job_id}/logs`;
  // warm both paths (connections, JIT) with a few lines each
  await measure(await fetch(bare.url), 20, bare.push);
  await measure(await fetch(logsUrl), 20, (i) => running.log('info', `line ${i}`));

  const bareMs = median(await measure(await fetch(bare.url), LINES, bare.push));
  const lastSeq = ctx.benchJobs().get(created!.job_id).log_count - 1;
  const ownMs = median(await measure(await fetch(logsUrl, { headers: { 'last-event-id': String(lastSeq) } }), LINES, (i) => running.log('info', `line ${i}`)));
  console.log(`median of ${LINES} lines, each appended alone ${GAP_MS} ms after the last arrived:`);
  report('bare Bun.serve event stream (baseline)', bareMs, bareMs);
  report('job log line appended in process to SSE client', ownMs, bareMs, 50);

  // another connection's appends wake no follower of this process: the store is polled for them
  const other = JobStore.open(join(dir, 'ws', 'registry'));
  const fromSeq = ctx.benchJobs().get(created!.job_id).log_count - 1;
  const crossMs = median(await measure(await fetch(logsUrl, { headers: { 'last-event-id': String(fromSeq) } }), CROSS_LINES, (i) => other.appendLog(created!.job_id, 'info', `line ${i}`)));
  other.close();
  report(`line appended by another connection (${CROSS_LINES} lines)`, crossMs, bareMs);
} finally {
  finish();
  await dashboard.stop();
  bare.stop();
  removeDir(dir);
}
