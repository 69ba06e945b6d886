import { afterEach, beforeEach, expect, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Workflow } from '../../../src/schema/workflow.ts';
import type { SearchNode } from '../../../src/search/contract.ts';
import { decideLineage, decisionProblem, lineageTrigger, type LineageView } from '../../../src/search/lineage.ts';
import { newRoot } from '../../../src/search/node.ts';
import { runSearch } from '../../../src/search/scheduler.ts';
import { type Answer, type ResponderServer, startResponderServer } from '../../support/model-server-responder.ts';
import { instantAnswer, scored, searchContext } from '../../support/search-run.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
let server: ResponderServer;
let judge: () => Answer;
beforeEach(() => {
  dir = tempDir('svc-lineage-');
  judge = () => '{"action": "continue", "target_idea_index": null, "disable_generate_ideas": false, "rationale": "fine"}';
  server = startResponderServer((r) => (r.prompt === 'orchestrator/lineage_decision' ? judge() : instantAnswer(r.prompt)));
});
afterEach(() => {
  server.stop();
  removeDir(dir);
});

const IDEAS = { ideas: [{ title: 'Radix sort', overall_score: 0.7 }, { title: 'Merge sort', overall_score: 0.6 }, { title: 'Sample sort', overall_score: 0.5 }] };

function withMode(mode: Workflow['lineage_decision']['mode'], more: Partial<Workflow['lineage_decision']> = {}) {
  return (w: Workflow) => {
    w.lineage_decision = { ...w.lineage_decision, mode, stagnation_window: 3, stagnation_threshold: 0.05, min_nodes_before_decision: 3, rate_limit_per_run: 5, ...more };
  };
}

function nodesScored(scores: number[]): SearchNode[] {
  return scores.map((s, i) => ({ ...newRoot('r', 'g', ''), id: `n${i}`, metrics: { _scientific_score: s } }));
}

function view(scores: number[], fired = 0): LineageView {
  const nodes = nodesScored(scores);
  return { nodes, executed: nodes, best: null, fired };
}

function records(ckpt: string) {
  const path = join(ckpt, 'lineage_decisions.jsonl');
  return existsSync(path) ? readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : [];
}

test('the trigger: off never, stagnation when the window spans less than the threshold, every_node each time, within min nodes and the rate limit', () => {
  const { ctx } = searchContext(dir, server.url, { workflow: withMode('stagnation_rule') });
  expect(lineageTrigger(ctx, view([0.5, 0.51]))).toBeNull(); // fewer than min nodes
  expect(lineageTrigger(ctx, view([0.1, 0.5, 0.51, 0.52]))).toBe('stagnation_rule');
  expect(lineageTrigger(ctx, view([0.5, 0.51, 0.6]))).toBeNull(); // spans 0.1
  expect(lineageTrigger(ctx, view([0.5, 0.51, 0.52], 5))).toBeNull(); // rate limit reached
  ctx.workflow.lineage_decision.mode = 'every_node';
  expect(lineageTrigger(ctx, view([0.1, 0.5, 0.9]))).toBe('every_node');
  ctx.workflow.lineage_decision.mode = 'off';
  expect(lineageTrigger(ctx, view([0.5, 0.5, 0.5]))).toBeNull();
});

test('a switch decision goes to onLineage and is recorded with the state', async () => {
  const { ctx } = searchContext(dir, server.url, { workflow: withMode('every_node') });
  writeFileSync(join(ctx.checkpointDir, 'idea.json'), JSON.stringify(IDEAS));
  judge = () => '{"action": "switch_to_idea", "target_idea_index": 2, "disable_generate_ideas": true, "rationale": "sample sort scales"}';
  const seen: unknown[] = [];
  const d = await decideLineage(ctx, view([0.1, 0.2, 0.3]), 'every_node', { signal: new AbortController().signal, onLineage: async (x) => void seen.push(x) });
  expect(d).toEqual({ action: 'switch_to_idea', target_idea_index: 2, disable_generate_ideas: true, rationale: 'sample sort scales' });
  expect(seen).toEqual([d]);
  const [rec] = records(ctx.checkpointDir);
  expect(Object.keys(rec)).toEqual(['ts', 'ts_iso', 'trigger', 'executed', 'state', 'decision', 'extra']);
  expect(rec.executed).toBe(true);
  expect(rec.state.alternatives).toEqual([{ index: 1, title: 'Merge sort', overall_score: 0.6 }, { index: 2, title: 'Sample sort', overall_score: 0.5 }]);
  expect(rec.state.recent_composite_scores).toEqual([0.1, 0.2, 0.3]);
  expect(rec.extra).toEqual({ stop_requested: false, actions_taken_so_far: 1, rate_limit: 5 });
});

test('the judge: a target outside the alternatives pool, an unknown action, a broken reply or a server error all degrade to continue, recorded', async () => {
  const { ctx, logs } = searchContext(dir, server.url, { workflow: withMode('every_node') });
  writeFileSync(join(ctx.checkpointDir, 'idea.json'), JSON.stringify(IDEAS));
  const bad: Answer[] = ['{"action": "fanout", "target_idea_index": 0, "rationale": "x"}', '{"action": "restart"}', 'I would continue', { status: 500 }];
  for (const answer of bad) {
    judge = () => answer;
    const d = await decideLineage(ctx, view([0.1, 0.2, 0.3]), 'every_node', { signal: new AbortController().signal });
    expect(d.action).toBe('continue');
  }
  expect(records(ctx.checkpointDir).map((r) => r.decision.action)).toEqual(['continue', 'continue', 'continue', 'continue']);
  expect(logs.filter((l) => l.startsWith('lineage:'))).toHaveLength(4);
});

test('the pool check', () => {
  const pool = new Set([1, 2]);
  expect(decisionProblem({ action: 'fanout', target_idea_index: 1 }, pool)).toBeNull();
  expect(decisionProblem({ action: 'fanout', target_idea_index: 3 }, pool)).toContain('one of the alternatives');
  expect(decisionProblem({ action: 'terminate' }, pool)).toBeNull();
  expect(decisionProblem([], pool)).toContain('not a JSON object');
});

test('terminate ends the search and marks meta.json, keeping what it held', async () => {
  const { ctx } = searchContext(dir, server.url, { workflow: withMode('stagnation_rule'), settings: { maxNodes: 20, parallel: 1 } });
  writeFileSync(join(ctx.checkpointDir, 'meta.json'), JSON.stringify({ run_id: 'run1', parent_run_id: 'p' }));
  judge = () => '{"action": "terminate", "target_idea_index": null, "disable_generate_ideas": false, "rationale": "no progress"}';
  const r = await runSearch(ctx, async () => scored(0.5), { signal: new AbortController().signal });
  expect(r.ended).toBe('terminated');
  expect(r.nodes.length).toBeLessThan(20);
  expect(JSON.parse(readFileSync(join(ctx.checkpointDir, 'meta.json'), 'utf8'))).toEqual({ run_id: 'run1', parent_run_id: 'p', parent_terminated: true, parent_terminated_rationale: 'no progress' });
  const [rec] = records(ctx.checkpointDir);
  expect(rec.trigger).toBe('stagnation_rule');
  expect(rec.state.ancestor_thread_present).toBe(true);
  const tree = JSON.parse(readFileSync(join(ctx.checkpointDir, 'tree.json'), 'utf8'));
  expect(tree.search_state.lineage).toEqual({ fired: 1 });
});

test('every_node with continue fires up to the rate limit, counted in the search state', async () => {
  const { ctx } = searchContext(dir, server.url, { workflow: withMode('every_node', { rate_limit_per_run: 2, min_nodes_before_decision: 1 }), settings: { maxNodes: 6, parallel: 1 } });
  const r = await runSearch(ctx, async () => scored(0.5), { signal: new AbortController().signal });
  expect(r.ended).toBe('done');
  expect(records(ctx.checkpointDir)).toHaveLength(2);
  const tree = JSON.parse(readFileSync(join(ctx.checkpointDir, 'tree.json'), 'utf8'));
  expect(tree.search_state.lineage).toEqual({ fired: 2 });
});
