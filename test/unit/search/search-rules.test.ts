import { afterEach, beforeEach, expect, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMemoryServer } from '../../../src/memory/server.ts';
import { NodeMemory } from '../../../src/memory/research/node-memory.ts';
import type { NodeTask, SearchNode } from '../../../src/search/contract.ts';
import { rootIdOf } from '../../../src/search/node.ts';
import { ABORT_GRACE_MS } from '../../../src/search/run-node.ts';
import { runSearch } from '../../../src/search/scheduler.ts';
import { type ChatRequest, type ResponderServer, startResponderServer } from '../../support/model-server-responder.ts';
import { instantAnswer, scored, searchContext } from '../../support/search-run.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
let server: ResponderServer;
let respond: (r: ChatRequest) => string;
beforeEach(() => {
  dir = tempDir('svc-rules-');
  respond = (r) => instantAnswer(r.prompt);
  server = startResponderServer((r) => respond(r));
});
afterEach(() => {
  server.stop();
  removeDir(dir);
});

const never = () => new AbortController().signal;
const treeOf = (ckpt: string) => JSON.parse(readFileSync(join(ckpt, 'tree.json'), 'utf8'));

test('the depth cap: no node deeper than maxDepth; then the search ends', async () => {
  const { ctx } = searchContext(dir, server.url, { settings: { maxNodes: 50, maxDepth: 2, parallel: 1, maxExpansionsPerNode: 1 } });
  let s = 0;
  const r = await runSearch(ctx, async () => scored((s += 0.1)), { signal: never() });
  expect(Math.max(...r.nodes.map((n) => n.depth))).toBe(2);
  expect(r.nodes).toHaveLength(3);
  expect(r.ended).toBe('done');
});

test('a frontier node retires after maxExpansionsPerNode children; a child that beats its parent retires it', async () => {
  const { ctx } = searchContext(dir, server.url, { settings: { maxNodes: 50, maxDepth: 1, parallel: 1, maxExpansionsPerNode: 4 } });
  const r = await runSearch(ctx, async (t) => scored(t.node.depth === 0 ? 0.9 : 0.1), { signal: never() });
  expect(r.nodes).toHaveLength(5); // the root and its four children
  const { ctx: ctx2 } = searchContext(join(dir, 'b'), server.url, { settings: { maxNodes: 50, maxDepth: 1, parallel: 1 } });
  const r2 = await runSearch(ctx2, async (t) => scored(t.node.depth === 0 ? 0.1 : 0.9), { signal: never() });
  expect(r2.nodes).toHaveLength(2); // the first child beat the root
  expect(treeOf(ctx2.checkpointDir).search_state.frontier).toEqual([]);
});

test('a sterile node gets no children', async () => {
  const { ctx } = searchContext(dir, server.url, { settings: { maxNodes: 50, parallel: 1 } });
  const r = await runSearch(ctx, async (t) => (t.node.depth === 1 ? scored(0, { metrics: { _sterile: true, _scientific_score: 0 } }) : scored(0.5)), { signal: never() });
  // the root (0.5) gets 4 sterile children and nothing more
  expect(r.nodes).toHaveLength(5);
  expect(r.nodes.filter((n) => n.depth === 1).every((n) => n.children.length === 0)).toBe(true);
});

test('the node cap is never passed, with many workers expanding at once', async () => {
  const { ctx } = searchContext(dir, server.url, { settings: { maxNodes: 7, parallel: 16 } });
  let most = 0;
  const r = await runSearch(ctx, async () => {
    most = Math.max(most, treeOf(ctx.checkpointDir).nodes.length);
    await Bun.sleep(20);
    return scored(0.5);
  }, { signal: never() });
  expect(r.nodes).toHaveLength(7);
  expect(most).toBeLessThanOrEqual(7);
});

test('the model choices are followed; the select prompt has the goal, "(no memory)" and the candidates', async () => {
  respond = (r) => (r.prompt === 'orchestrator/bfts_select' ? '1' : r.prompt === 'orchestrator/bfts_expand' ? `[{"label": "improve", "direction": "variant ${r.system.length}"}]` : '0');
  const { ctx } = searchContext(dir, server.url, { settings: { maxNodes: 4, parallel: 2 } });
  const order: string[] = [];
  await runSearch(ctx, async (t) => {
    order.push(t.node.id);
    return scored(0.5);
  }, { signal: never() });
  const sel = server.requests.find((r) => r.prompt === 'orchestrator/bfts_select') as ChatRequest;
  expect(sel.system).toContain('Make the sort of 1M integers faster.');
  expect(sel.system).toContain('(no memory)');
  expect(sel.system).toContain('[1] id=');
  expect(sel.system.split('\n')[0]).toBe('<!-- prompt: orchestrator/bfts_select -->');
  const root = treeOf(ctx.checkpointDir).nodes[0];
  expect(order[1]).toBe(root.children[1]); // index 1 of the two pending children
  expect(server.requests.every((r) => r.messages[0]?.content.startsWith('<!-- prompt: orchestrator/'))).toBe(true);
});

test('a runner that ignores the abort is left behind after the grace period and its node failed', async () => {
  const { ctx } = searchContext(dir, server.url, { settings: { maxNodes: 1, timeoutNodeS: 0.1 } });
  const r = await runSearch(ctx, () => new Promise(() => {}), { signal: never() });
  expect(r.nodes[0]?.status).toBe('failed');
  expect(r.nodes[0]?.error_log).toBe(`stopped after 0.1 s (SVC_TIMEOUT_NODE); the node did not end within ${ABORT_GRACE_MS / 1000} s of being stopped`);
}, ABORT_GRACE_MS + 5000);

test('a resume re-runs failed, running and pending nodes in place and keeps the frontier, expansion counts and label history', async () => {
  const { ctx } = searchContext(dir, server.url, { settings: { maxNodes: 6, parallel: 1 } });
  const first = await runSearch(ctx, async (t) => (t.node.depth === 1 ? { ...scored(0), status: 'failed', error_log: 'boom' } : scored(0.5)), { signal: never() });
  expect(first.nodes.filter((n) => n.status === 'failed').length).toBeGreaterThan(0);
  // make the tree look interrupted: one node running, one pending
  const tree = treeOf(ctx.checkpointDir);
  const ids = tree.nodes.map((n: SearchNode) => n.id);
  tree.nodes[2].status = 'running';
  tree.search_state.expansions[rootIdOf('run1')] = 4;
  tree.search_state.label_history.push('validation');
  writeFileSync(join(ctx.checkpointDir, 'tree.json'), JSON.stringify(tree));
  const rerun: string[] = [];
  const again = await runSearch(ctx, async (t: NodeTask) => {
    rerun.push(t.node.id);
    return scored(0.6);
  }, { signal: never() });
  expect(again.nodes.map((n) => n.id)).toEqual(ids);
  expect(rerun).toEqual(first.nodes.filter((n) => n.status === 'failed' || n.id === ids[2]).map((n) => n.id));
  expect(again.nodes.every((n) => n.status === 'success')).toBe(true);
  const after = treeOf(ctx.checkpointDir).search_state;
  expect(after.expansions[rootIdOf('run1')]).toBe(4);
  expect(after.label_history.slice(0, tree.search_state.label_history.length)).toEqual(tree.search_state.label_history);
});

test('a tree.json that is not JSON stops the search with the fix', async () => {
  const { ctx } = searchContext(dir, server.url);
  writeFileSync(join(ctx.checkpointDir, 'tree.json'), '{"nodes": [');
  await expect(runSearch(ctx, async () => scored(1), { signal: never() })).rejects.toThrow('tree.json is not JSON');
});

test('a tree written by the reference implementation (no search_state, old statuses) resumes', async () => {
  const { ctx } = searchContext(dir, server.url, { settings: { maxNodes: 3, parallel: 1 } });
  const root = { id: rootIdOf('run1'), parent_id: null, depth: 0, status: 'completed', children: [], metrics: { _scientific_score: 0.2 }, has_real_data: true, label: 'draft' };
  writeFileSync(join(ctx.checkpointDir, 'tree.json'), JSON.stringify({ run_id: 'run1', nodes: [root] }));
  const r = await runSearch(ctx, async () => scored(0.5), { signal: never() });
  expect(r.nodes).toHaveLength(3);
  expect(r.nodes[0]?.status).toBe('success');
  expect(Object.keys(r.nodes[0] as object)).toHaveLength(20);
});

test('settings the search cannot run with are refused before anything is written, naming the setting', async () => {
  const bad: [Record<string, unknown>, string][] = [
    [{ maxNodes: 0 }, 'the node cap must be'],
    [{ parallel: 1.5 }, 'parallel nodes must be'],
    [{ maxDepth: -1 }, 'the depth cap must be'],
    [{ timeoutNodeS: 0 }, 'time limit must be above 0'],
    [{ maxExpansionsPerNode: 0 }, 'expansions per node must be'],
    [{ selectPrompt: 'pick one of {candidates} for {experiment_goal}' }, 'bfts.select_prompt template lacks {memory_context}'],
    [{ expandSelectPrompt: 'pick one' }, 'lacks {experiment_goal}, {candidates}'],
  ];
  for (const [settings, words] of bad) {
    const { ctx } = searchContext(dir, server.url, { settings });
    await expect(runSearch(ctx, async () => scored(1), { signal: never() })).rejects.toThrow(words);
    expect(existsSync(join(ctx.checkpointDir, 'tree.json'))).toBe(false);
  }
});

test('the expand prompt carries the parent, its node report and the budget; a failed expand call adds an improve child, logged', async () => {
  let fail = false;
  server.stop();
  server = startResponderServer((r) => (r.prompt === 'orchestrator/bfts_expand' && fail ? { status: 500 } : respond(r)));
  const { ctx, logs } = searchContext(dir, server.url, { settings: { maxNodes: 3, parallel: 1 } });
  await runSearch(ctx, async (t) => {
    const report = join(t.workDir, 'node_report.json');
    writeFileSync(report, JSON.stringify({ delta_vs_parent: 'switched to radix', self_assessment: { concerns: ['noisy timing'] }, next_steps_hints: ['pin the CPU'] }));
    fail = t.node.depth === 1;
    return scored(0.3 + t.node.depth / 10, { node_report_path: report });
  }, { signal: never() });
  const expand = server.requests.find((r) => r.prompt === 'orchestrator/bfts_expand') as ChatRequest;
  expect(expand.system).toContain('switched to radix');
  expect(expand.system).toContain('pin the CPU');
  expect(expand.system).toContain('Depth of the child: 1 of at most 5. Nodes left in the budget: 2.');
  const tree = treeOf(ctx.checkpointDir);
  expect(tree.nodes[2].label).toBe('improve');
  expect(logs.some((l) => l.startsWith(`bfts expand ${tree.nodes[1].id}: the model call failed`))).toBe(true);
});

test('select_next_node gets the memory of the candidates\' ancestors; unreachable memory is said once and left alone', async () => {
  const data = join(dir, 'memdata');
  const mem = startMemoryServer({ port: 0, host: '127.0.0.1', dataDir: data });
  try {
    const { ctx } = searchContext(dir, server.url, { settings: { maxNodes: 4, parallel: 3 }, memoryUrl: mem.url });
    const store = NodeMemory.forCheckpoint(ctx.checkpointDir, ctx.env);
    await store.addOne({ nodeId: rootIdOf('run1'), kind: 'node_scope', text: 'the sort of 1M integers took 80 ms with std::sort', metadata: {} });
    await runSearch(ctx, async () => scored(0.5), { signal: never() });
    const sel = server.requests.find((r) => r.prompt === 'orchestrator/bfts_select') as ChatRequest;
    expect(sel.system).toContain(`- [${rootIdOf('run1')}] the sort of 1M integers took 80 ms with std::sort`);
  } finally {
    await mem.stop();
  }
  const { ctx, logs } = searchContext(join(dir, 'b'), server.url, { settings: { maxNodes: 7, parallel: 3 } });
  await runSearch(ctx, async () => scored(0.5), { signal: never() });
  const sels = server.requests.filter((r) => r.prompt === 'orchestrator/bfts_select');
  expect(sels.at(-1)?.system).toContain('(no memory)');
  expect(logs.filter((l) => l.includes('selecting without memory'))).toHaveLength(1);
});
