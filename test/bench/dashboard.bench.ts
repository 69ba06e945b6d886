// The dashboard under loopback load: GET /state throughput and GET /api/checkpoints latency of
// `svc viz` on workspaces of 1, 200 and 1,000 checkpoints (50 nodes each), each against a bare
// Bun.serve JSON handler in this process, measured the same way in the same run. The load runs
// in a worker thread, so neither server shares its thread with the client. Then the first
// GET /api/checkpoints of a dashboard just started on 1,000 checkpoints, with the index the last
// start kept and without one.
import { median } from './measure.ts';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { indexFile } from '../../src/core/checkpoint/index-file.ts';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { removeDir, tempDir } from '../support/svc.ts';
import { startViz } from '../support/viz.ts';

declare const self: Worker;

type Load = { url: string; concurrency: number; requests: number };
type LoadResult = { seconds: number; latencies: number[] };

/** In the worker: `concurrency` fetch loops share `requests` requests; every answer must be 200. */
async function load({ url, concurrency, requests }: Load): Promise<LoadResult> {
  let next = 0;
  const latencies: number[] = [];
  const loop = async () => {
    while (next++ < requests) {
      const t0 = performance.now();
      const res = await fetch(url);
      await res.arrayBuffer();
      latencies.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, loop));
  return { seconds: (performance.now() - t0) / 1000, latencies };
}

if (!Bun.isMainThread) {
  self.onmessage = async (e: MessageEvent<Load>) => postMessage(await load(e.data));
} else {
  await main();
}

async function main() {
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
  const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4000);
  const CONCURRENCY = 16;
  const LATENCY_SAMPLES = 60;
  const SIZES = [1, 200, 1000];

  const worker = new Worker(import.meta.path);
  const run = (url: string, concurrency: number, requests: number) =>
    new Promise<LoadResult>((done, fail) => {
      worker.onmessage = (e: MessageEvent<LoadResult>) => done(e.data);
      worker.onerror = (e) => fail(new Error(e.message));
      worker.postMessage({ url, concurrency, requests } satisfies Load);
    });
  const throughput = async (url: string) => {
    const r = await run(url, CONCURRENCY, REQUESTS);
    return REQUESTS / r.seconds;
  };
  const latency = async (url: string) => median((await run(url, 1, LATENCY_SAMPLES)).latencies);

  const dir = tempDir('svc-bench-');
  const started = performance.now();
  for (const size of SIZES) {
    const root = join(dir, `ws${size}`, 'checkpoints');
    for (let i = 0; i < size; i++) writeCheckpoint(root, { runId: `20261101${String(i).padStart(6, '0')}_run`, nodes: 50 });
  }
  console.log(`wrote ${SIZES.join(', ')} checkpoints of 50 nodes in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const bareLatencies: number[] = [];
  const rows: string[] = [];
  for (const size of SIZES) {
    const viz = await startViz([join(dir, `ws${size}`)], { cwd: dir, env: { HOME: dir } });
    const stateBody = await (await fetch(`${viz.base}/state`)).text();
    // the baseline answers a body of the same size, so both pay the same for bytes on the wire
    const bare = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response(stateBody, { headers: { 'content-type': 'application/json; charset=utf-8' } }) });
    const bareUrl = `http://127.0.0.1:${bare.port}/`;
    try {
      await throughput(`${viz.base}/state`); // warm both servers and the connection pool
      await throughput(bareUrl);
      const stateRates: number[] = [];
      const bareRates: number[] = [];
      const floorRates: number[] = [];
      // interleaved rounds: drift on a shared machine affects all alike
      for (let r = 0; r < ROUNDS; r++) {
        bareRates.push(await throughput(bareUrl));
        stateRates.push(await throughput(`${viz.base}/state`));
        floorRates.push(await throughput(`${viz.base}/api/active-checkpoint`));
      }
      const [stateRate, bareRate, floorRate] = [median(stateRates), median(bareRates), median(floorRates)];
      const ratio = stateRate / bareRate;
      console.log(`${String(size).padStart(5)} checkpoints: GET /state ${stateRate.toFixed(0).padStart(6)} req/s against bare ${bareRate.toFixed(0).padStart(6)} req/s = ${ratio.toFixed(2)}x  target at least 0.5x: ${ratio >= 0.5 ? 'met' : 'MISSED'}`);
      // a route that reads no checkpoint file: what the server stack (token check, CORS, access log, routing) leaves
      console.log(`${' '.repeat(19)}/api/active-checkpoint ${floorRate.toFixed(0).padStart(6)} req/s = ${(floorRate / bareRate).toFixed(2)}x bare (server stack alone, no target)`);

      const url = `${viz.base}/api/checkpoints`;
      const listed = (await (await fetch(url)).json()) as unknown[];
      if (listed.length !== size) throw new Error(`listed ${listed.length} of ${size} checkpoints`);
      await run(url, 1, 5);
      const ms = await latency(url);
      const bareMs = await latency(bareUrl);
      bareLatencies.push(bareMs);
      const verdict = size === 1000 ? `  target under 20 ms: ${ms < 20 ? 'met' : 'MISSED'}` : '';
      rows.push(`  ${String(size).padStart(5)} checkpoints  ${ms.toFixed(2).padStart(7)} ms  ${(ms / bareMs).toFixed(1).padStart(6)}x bare (${bareMs.toFixed(2)} ms)${verdict}`);
    } finally {
      await viz.stop();
      bare.stop(true);
    }
  }
  console.log(`GET /state: ${CONCURRENCY} concurrent loops, ${REQUESTS} requests x ${ROUNDS} rounds (median) each`);
  console.log(`GET /api/checkpoints, median of ${LATENCY_SAMPLES} sequential requests after a warm-up:`);
  for (const row of rows) console.log(row);

  /** The first GET /api/checkpoints of a dashboard just started on `workspace`, over a connection already open. */
  const firstListing = async (workspace: string) => {
    const viz = await startViz([workspace], { cwd: dir, env: { HOME: dir } });
    try {
      await run(`${viz.base}/api/active-checkpoint`, 1, 1); // opens the connection, lists nothing
      return (await run(`${viz.base}/api/checkpoints`, 1, 1)).latencies[0] ?? NaN;
    } finally {
      await viz.stop();
    }
  };
  const SIZE = 1000;
  const workspace = join(dir, `ws${SIZE}`);
  const warmStarts: number[] = [];
  const coldStarts: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    rmSync(indexFile(join(workspace, 'checkpoints')), { force: true });
    coldStarts.push(await firstListing(workspace));
    warmStarts.push(await firstListing(workspace)); // the index the cold start left
  }
  const bareMs = bareLatencies[SIZES.indexOf(SIZE)] ?? NaN;
  const first = (label: string, ms: number, verdict: string) => `  ${label}  ${ms.toFixed(2).padStart(7)} ms  ${(ms / bareMs).toFixed(1).padStart(6)}x bare (${bareMs.toFixed(2)} ms)${verdict}`;
  console.log(`first GET /api/checkpoints after a fresh svc viz start on ${SIZE} checkpoints, median of ${ROUNDS} starts (files in the page cache):`);
  console.log(first('index kept by the last start', median(warmStarts), `  target under 50 ms: ${median(warmStarts) < 50 ? 'met' : 'MISSED'}`));
  console.log(first('no index file (cold)        ', median(coldStarts), ''));
  worker.terminate();
  removeDir(dir);
}

