import { afterEach, beforeEach, expect, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NodeTask } from '../../../src/search/contract.ts';
import { childIdOf, rootIdOf } from '../../../src/search/node.ts';
import { runSearch } from '../../../src/search/scheduler.ts';
import { type ResponderServer, startResponderServer } from '../../support/model-server-responder.ts';
import { instantAnswer, scored, searchContext } from '../../support/search-run.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
let server: ResponderServer;
beforeEach(() => {
  dir = tempDir('svc-search-');
  server = startResponderServer((r) => instantAnswer(r.prompt));
});
afterEach(() => {
  server.stop();
  removeDir(dir);
});

const never = () => new AbortController().signal;

test('a search runs the root, then children up to the node cap, and saves the tree', async () => {
  const { ctx } = searchContext(dir, server.url, { settings: { maxNodes: 6, parallel: 2 } });
  let score = 0.1;
  const r = await runSearch(ctx, async () => scored((score += 0.1)), { signal: never() });
  expect(r.ended).toBe('done');
  expect(r.nodes).toHaveLength(6);
  expect(r.nodes[0]?.id).toBe(rootIdOf('run1'));
  expect(r.nodes[0]?.label).toBe('draft');
  expect(r.nodes[1]?.id).toBe(childIdOf(rootIdOf('run1'), 0));
  expect(r.nodes.every((n) => n.status === 'success')).toBe(true);
  expect(r.best?.metrics._scientific_score).toBeCloseTo(0.7);
  const tree = JSON.parse(readFileSync(join(ctx.checkpointDir, 'tree.json'), 'utf8'));
  expect(Object.keys(tree)).toEqual(['run_id', 'experiment_file', 'experiment_file_sha256', 'experiment_file_len', 'created_at', 'nodes', 'search_state']);
  expect(tree.experiment_file_sha256).toHaveLength(16);
  expect(Object.keys(tree.nodes[1])).toEqual(['id', 'parent_id', 'depth', 'status', 'retry_count', 'children', 'created_at', 'completed_at', 'artifacts', 'metrics', 'has_real_data', 'eval_summary', 'label', 'raw_label', 'name', 'error_log', 'ancestor_ids', 'trace_log', 'original_direction', 'node_report_path']);
  expect(tree.nodes[1].name).toBe('improve: Tune the block size of the sort');
  expect(tree.nodes).toEqual(JSON.parse(JSON.stringify(r.nodes)));
  expect(tree.search_state).toMatchObject({ ended: 'done' });
  expect(Object.keys(tree.search_state)).toEqual(['frontier', 'expansions', 'label_history', 'lineage', 'ended']);
  const nt = JSON.parse(readFileSync(join(ctx.checkpointDir, 'nodes_tree.json'), 'utf8'));
  expect(nt.experiment_goal).toBe(ctx.goal);
  const results = JSON.parse(readFileSync(join(ctx.checkpointDir, 'results.json'), 'utf8'));
  expect(Object.keys(results.nodes)).toHaveLength(6);
  expect(Object.keys(results.nodes[r.nodes[0]?.id as string])).toEqual(['artifacts', 'metrics', 'has_real_data', 'eval_summary', 'status', 'error_log']);
});

test('a freed worker takes the next node at once, with more than four workers', async () => {
  const { ctx } = searchContext(dir, server.url, { settings: { maxNodes: 13, parallel: 6 } });
  let now = 0;
  let peak = 0;
  const runner = async (t: NodeTask) => {
    now++;
    peak = Math.max(peak, now);
    await Bun.sleep(t.node.depth === 0 ? 5 : 300);
    now--;
    return scored(0.5);
  };
  const r = await runSearch(ctx, runner, { signal: never() });
  expect(r.nodes).toHaveLength(13);
  expect(peak).toBe(6);
});

test('a runner that throws fails its node with the one-line error, and the failed node gets a debug child', async () => {
  server.stop();
  server = startResponderServer((r) => (r.prompt === 'orchestrator/bfts_expand' ? 'no json here' : '0'));
  const { ctx } = searchContext(dir, server.url, { settings: { maxNodes: 2, parallel: 1 } });
  const r = await runSearch(ctx, async (t) => {
    if (t.node.depth === 0) throw new Error('compiler crashed\nstack...');
    return scored(0.2);
  }, { signal: never() });
  expect(r.nodes[0]?.status).toBe('failed');
  expect(r.nodes[0]?.error_log).toBe('compiler crashed');
  expect(r.nodes[1]?.label).toBe('debug');
});

test('a node over its time limit is stopped and failed saying so', async () => {
  const { ctx } = searchContext(dir, server.url, { settings: { maxNodes: 1, timeoutNodeS: 0.2 } });
  const r = await runSearch(ctx, (t) => new Promise((_, reject) => t.signal.addEventListener('abort', () => reject(new Error('killed')))), { signal: never() });
  expect(r.nodes[0]?.status).toBe('failed');
  expect(r.nodes[0]?.error_log).toBe('stopped after 0.2 s (SVC_TIMEOUT_NODE)');
});

test('expansion disabled runs only what is pending', async () => {
  const { ctx } = searchContext(dir, server.url, { settings: { expansionEnabled: false } });
  const r = await runSearch(ctx, async () => scored(0.3), { signal: never() });
  expect(r.nodes).toHaveLength(1);
  expect(server.requests).toHaveLength(0);
});

test('stopping the run aborts running nodes, saves and ends stopped; a resume runs them again', async () => {
  const { ctx } = searchContext(dir, server.url, { settings: { maxNodes: 4, parallel: 2 } });
  const stop = new AbortController();
  const r = await runSearch(ctx, async (t) => {
    if (t.node.depth === 1) {
      stop.abort();
      if (!t.signal.aborted) await new Promise((res) => t.signal.addEventListener('abort', res));
      return scored(0.9);
    }
    return scored(0.1);
  }, { signal: stop.signal });
  expect(r.ended).toBe('stopped');
  const stopped = r.nodes.find((n) => n.depth === 1);
  expect(stopped?.status).toBe('failed');
  expect(stopped?.error_log).toContain('the run was stopped');
  const again = await runSearch(ctx, async () => scored(0.5), { signal: never() });
  expect(again.ended).toBe('done');
  expect(again.nodes).toHaveLength(4);
  expect(again.nodes.find((n) => n.id === stopped?.id)?.status).toBe('success');
  expect(again.nodes.every((n) => n.status === 'success')).toBe(true);
});

test('an invalid selection answer falls back to the formula and says so in one line', async () => {
  server.stop();
  server = startResponderServer((r) => (r.prompt === 'orchestrator/bfts_expand_select' ? 'the second one, I think' : instantAnswer(r.prompt)));
  const { ctx, logs } = searchContext(dir, server.url, { settings: { maxNodes: 5, parallel: 1 } });
  await runSearch(ctx, async () => scored(0.4), { signal: never() });
  const line = logs.find((l) => l.includes('select_best_to_expand'));
  expect(line).toContain("the answer 'the second one, I think' is not an index");
  expect(line).toContain('scientific_plus_diversity formula');
});

test('the work directory inherits the parent files but not its outputs or run records', async () => {
  const { ctx } = searchContext(dir, server.url, { settings: { maxNodes: 2, parallel: 1 } });
  writeFileSync(join(ctx.checkpointDir, 'data.csv'), 'a,b\n');
  const seen: Record<string, string[]> = {};
  await runSearch(ctx, async (t) => {
    seen[t.node.id] = ['sort.c', 'results.csv', 'data.csv', 'tree.json', 'run.log'].filter((f) => existsSync(join(t.workDir, f)));
    if (t.node.depth === 0) for (const f of ['sort.c', 'results.csv', 'tree.json', 'run.log']) writeFileSync(join(t.workDir, f), 'x');
    return scored(0.1);
  }, { signal: never() });
  const [root, child] = Object.values(seen);
  expect(root).toEqual(['data.csv']);
  expect(child).toEqual(['sort.c', 'data.csv']);
});
