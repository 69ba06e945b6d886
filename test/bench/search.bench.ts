// The tree search: (a) scheduling overhead per node on a 1,000-node tree with an instant scripted
// model and a runner that returns at once (selection and expansion calls, tree saves, work
// directories), against one model round trip; (b) sleep-bound nodes, 4 workers against 1.
import { createHash } from 'node:crypto';
import type { NodeRunner } from '../../src/search/contract.ts';
import { runSearch } from '../../src/search/scheduler.ts';
import { startResponderServer } from '../support/model-server-responder.ts';
import { instantAnswer, scored, searchContext } from '../support/search-run.ts';
import { removeDir, tempDir } from '../support/svc.ts';
import { median, report } from './measure.ts';

const NODES = Number(process.env.BENCH_SEARCH_NODES ?? 1000);
const SLEEP_NODES = Number(process.env.BENCH_SLEEP_NODES ?? 80);
const SLEEP_MS = Number(process.env.BENCH_SLEEP_MS ?? 120);

const server = startResponderServer((r) => instantAnswer(r.prompt));
const dirs: string[] = [];

/** A score from the node id: the same tree every run, with parents sometimes beaten by children. */
const idScore = (id: string) => Number.parseInt(createHash('sha256').update(id).digest('hex').slice(0, 4), 16) / 65536;

async function search(maxNodes: number, parallel: number, runner: NodeRunner): Promise<number> {
  const dir = tempDir('svc-bench-search-');
  dirs.push(dir);
  const { ctx } = searchContext(dir, server.url, { settings: { maxNodes, parallel, maxDepth: 12 } });
  const t0 = performance.now();
  const r = await runSearch(ctx, runner, { signal: new AbortController().signal });
  const ms = performance.now() - t0;
  if (r.nodes.length !== maxNodes) throw new Error(`the search made ${r.nodes.length} nodes, not ${maxNodes}`);
  return ms;
}

async function modelRoundTrip(n: number): Promise<number[]> {
  const dir = tempDir('svc-bench-search-');
  dirs.push(dir);
  const { ctx } = searchContext(dir, server.url);
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await ctx.model.complete({ role: 'bfts', messages: [{ role: 'system', content: '<!-- prompt: orchestrator/bfts_select -->\npick' }, { role: 'user', content: 'one index' }] });
    times.push(performance.now() - t0);
  }
  return times;
}

try {
  const call = median(await modelRoundTrip(200));
  const instant: NodeRunner = async (t) => scored(idScore(t.node.id));
  await search(20, 4, instant); // warm-up
  const perNode = (await search(NODES, 4, instant)) / NODES;
  report(`scheduling per node, ${NODES}-node tree (vs 1 model call)`, perNode, call, 10);

  const sleeper: NodeRunner = async (t) => {
    await Bun.sleep(SLEEP_MS);
    return scored(idScore(t.node.id));
  };
  const one = await search(SLEEP_NODES, 1, sleeper);
  const four = await search(SLEEP_NODES, 4, sleeper);
  const speedup = one / four;
  console.log(`${`${SLEEP_NODES} nodes of ${SLEEP_MS} ms: 4 workers vs 1`.padEnd(48)} ${speedup.toFixed(2).padStart(9)}x faster  (1 worker ${(one / 1000).toFixed(2)} s, 4 workers ${(four / 1000).toFixed(2)} s)  target >= 3.6x: ${speedup >= 3.6 ? 'met' : 'MISSED'}`);
} finally {
  server.stop();
  for (const d of dirs) removeDir(d);
}
