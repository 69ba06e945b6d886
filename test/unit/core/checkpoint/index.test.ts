import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listCheckpointIndex } from '../../../../src/core/checkpoint/index.ts';
import { writeCheckpoint } from '../../../support/checkpoint.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

let ws: string;
let root: string;
const sleepers: Bun.Subprocess[] = [];
beforeEach(() => {
  ws = tempDir();
  root = join(ws, 'checkpoints');
  mkdirSync(root);
});
afterEach(async () => {
  for (const p of sleepers.splice(0)) {
    p.kill();
    await p.exited;
  }
  removeDir(ws);
});

/** A real process whose PID a checkpoint can record; it dies when the test kills it. */
function sleeper(): Bun.Subprocess {
  const p = Bun.spawn(['sleep', '60']);
  sleepers.push(p);
  return p;
}

const ids = () => listCheckpointIndex(root).map((e) => e.id);

function addNode(dir: string, id: string): void {
  const tree = JSON.parse(readFileSync(join(dir, 'tree.json'), 'utf8'));
  tree.nodes.push({ id, status: 'success', metrics: { _scientific_score: 0.99 } });
  writeFileSync(join(dir, 'tree.json'), JSON.stringify(tree, null, 2)); // in place, as the reference implementation writes
}

describe('listCheckpointIndex', () => {
  test('an entry per checkpoint, newest name first, with the list fields', () => {
    const old = writeCheckpoint(root, { runId: '20260101000000_old', nodes: 5 });
    writeCheckpoint(root, { runId: '20260201000000_new', nodes: 3 });
    writeFileSync(join(old, 'review_report.json'), JSON.stringify({ score: 6.5 }));
    const list = listCheckpointIndex(root);
    expect(list.map((e) => e.id)).toEqual(['20260201000000_new', '20260101000000_old']);
    expect(list[1]).toEqual({
      id: '20260101000000_old',
      path: old,
      status: 'done',
      node_count: 5,
      review_score: 6.5,
      claim_gate: null,
      best_metric: null,
      mtime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      best_scientific_score: 0.9,
      goal: 'Maximise throughput of the generated kernel.',
      cost: { usd: 1.25, tokens: 5000 },
      reproducibility_score: null,
      parent_run_id: null,
    });
  });

  test('overall_score wins over score; best_scientific_score only when a node has one', () => {
    const ck = writeCheckpoint(root, { runId: '20260101000000_a', nodes: 1 });
    writeFileSync(join(ck, 'review_report.json'), JSON.stringify({ overall_score: 7.5, score: 2 }));
    writeFileSync(join(ck, 'tree.json'), JSON.stringify({ nodes: [{ id: 'n0', status: 'success', metrics: { x: 1 } }] }));
    const [entry] = listCheckpointIndex(root);
    expect(entry?.review_score).toBe(7.5);
    expect(entry && 'best_scientific_score' in entry).toBe(false);
  });

  test('no checkpoints directory, an empty one, and entries that are not checkpoints: nothing listed', () => {
    expect(listCheckpointIndex(join(ws, 'missing'))).toEqual([]);
    expect(listCheckpointIndex(root)).toEqual([]);
    mkdirSync(join(root, 'plain'));
    writeCheckpoint(root, { runId: 'not_a_run_name' });
    writeFileSync(join(root, 'stray.log'), 'x');
    mkdirSync(join(root, '.deleting-x'));
    writeFileSync(join(root, '.deleting-x', 'tree.json'), '{"nodes": []}');
    expect(listCheckpointIndex(root)).toEqual([]);
  });

  test('a damaged checkpoint still lists with what can be read, and does not hide the others', () => {
    const truncated = writeCheckpoint(root, { runId: '20260101000000_b_truncated', nodes: 6 });
    const text = readFileSync(join(truncated, 'tree.json'), 'utf8');
    writeFileSync(join(truncated, 'tree.json'), text.slice(0, Math.floor(text.length * 0.6)));
    const garbage = writeCheckpoint(root, { runId: '20260101000000_a_garbage' });
    writeFileSync(join(garbage, 'tree.json'), '\u0000not json');
    writeFileSync(join(garbage, 'review_report.json'), '{');
    writeFileSync(join(garbage, 'cost_summary.json'), '[]');
    writeCheckpoint(root, { runId: '20260101000000_c_fine', nodes: 2 });
    const byId = Object.fromEntries(listCheckpointIndex(root).map((e) => [e.id, e]));
    expect(Object.keys(byId)).toEqual(['20260101000000_c_fine', '20260101000000_b_truncated', '20260101000000_a_garbage']);
    expect(byId['20260101000000_b_truncated']?.node_count).toBeGreaterThan(0);
    expect(byId['20260101000000_b_truncated']?.node_count).toBeLessThan(6);
    expect(byId['20260101000000_a_garbage']).toMatchObject({ status: 'new', node_count: 0, review_score: null, cost: null });
    expect(byId['20260101000000_c_fine']).toMatchObject({ status: 'done', node_count: 2 });
  });

  test('unchanged checkpoints are answered from the cache: the same entry objects', () => {
    writeCheckpoint(root, { runId: '20260101000000_a' });
    writeCheckpoint(root, { runId: '20260101000000_b' });
    const first = listCheckpointIndex(root);
    // a snapshot taken within moments of a write is checked again once; after that it is trusted
    Bun.sleepSync(60);
    const second = listCheckpointIndex(root);
    const third = listCheckpointIndex(root);
    expect(third).toEqual(first);
    expect(third[0] === second[0] && third[1] === second[1]).toBe(true);
  });

  test('notices a node written into tree.json in place, and an atomic rewrite', () => {
    const ck = writeCheckpoint(root, { runId: '20260101000000_a', nodes: 3 });
    Bun.sleepSync(60);
    expect(listCheckpointIndex(root)[0]?.node_count).toBe(3);
    addNode(ck, 'node_added');
    expect(listCheckpointIndex(root)[0]).toMatchObject({ node_count: 4, best_scientific_score: 0.99 });
    const tree = JSON.parse(readFileSync(join(ck, 'tree.json'), 'utf8'));
    tree.status = 'failed';
    writeFileSync(join(ck, '.tree.json.tmp'), JSON.stringify(tree));
    renameSync(join(ck, '.tree.json.tmp'), join(ck, 'tree.json'));
    expect(listCheckpointIndex(root)[0]?.status).toBe('failed');
  });

  test('nodes_tree.json counts once tree.json is damaged, and its changes are then noticed', () => {
    const ck = writeCheckpoint(root, { runId: '20260101000000_a', nodes: 3 });
    const nodes = (n: number) => JSON.stringify({ nodes: Array.from({ length: n }, (_, i) => ({ id: `n${i}`, status: 'success' })) });
    writeFileSync(join(ck, 'nodes_tree.json'), nodes(5));
    Bun.sleepSync(60);
    expect(listCheckpointIndex(root)[0]?.node_count).toBe(3);
    writeFileSync(join(ck, 'tree.json'), 'garbage');
    expect(listCheckpointIndex(root)[0]?.node_count).toBe(5);
    Bun.sleepSync(60);
    listCheckpointIndex(root);
    writeFileSync(join(ck, 'nodes_tree.json'), nodes(7));
    expect(listCheckpointIndex(root)[0]?.node_count).toBe(7);
  });

  test('notices a same-size rewrite made right after it looked', () => {
    const ck = writeCheckpoint(root, { runId: '20260101000000_a' });
    writeFileSync(join(ck, 'cost_summary.json'), JSON.stringify({ total_cost_usd: 1.25, total_tokens: 1000, call_count: 1 }));
    expect(listCheckpointIndex(root)[0]?.cost).toEqual({ usd: 1.25, tokens: 1000 });
    writeFileSync(join(ck, 'cost_summary.json'), JSON.stringify({ total_cost_usd: 9.75, total_tokens: 2000, call_count: 1 }));
    expect(listCheckpointIndex(root)[0]?.cost).toEqual({ usd: 9.75, tokens: 2000 });
  });

  test('notices new, removed and newly reviewed checkpoints', () => {
    writeCheckpoint(root, { runId: '20260101000000_a' });
    Bun.sleepSync(60);
    expect(ids()).toEqual(['20260101000000_a']);
    const b = writeCheckpoint(root, { runId: '20260102000000_b' });
    expect(ids()).toEqual(['20260102000000_b', '20260101000000_a']);
    writeFileSync(join(b, 'review_report.json'), JSON.stringify({ overall_score: 8 }));
    expect(listCheckpointIndex(root)[0]?.review_score).toBe(8);
    rmSync(b, { recursive: true });
    expect(ids()).toEqual(['20260101000000_a']);
  });

  test("a sub-experiment names its parent from its meta.json, written after it was listed; a broken meta.json lists it without one", () => {
    const ck = writeCheckpoint(root, { runId: '20260101000000_child' });
    expect(listCheckpointIndex(root)[0]?.parent_run_id).toBeNull();
    Bun.sleepSync(60);
    writeFileSync(join(ck, 'meta.json'), JSON.stringify({ parent_run_id: '20251231000000_parent', root_run_id: '20251231000000_parent', depth: 1 }));
    expect(listCheckpointIndex(root)[0]?.parent_run_id).toBe('20251231000000_parent');
    Bun.sleepSync(60);
    writeFileSync(join(ck, 'meta.json'), '{ "parent_run_id": ');
    expect(listCheckpointIndex(root)[0]).toMatchObject({ id: '20260101000000_child', parent_run_id: null });
  });

  test('notices a graded reproduction, rewritten in place; a legacy text report is no score', () => {
    const ck = writeCheckpoint(root, { runId: '20260101000000_a' });
    const report = join(ck, 'reproducibility_report.json');
    writeFileSync(report, 'reproduced: mostly');
    expect(listCheckpointIndex(root)[0]?.reproducibility_score).toBeNull();
    Bun.sleepSync(60);
    writeFileSync(report, JSON.stringify({ ors_score: 0.75, n_runs: 3, degraded: false }));
    expect(listCheckpointIndex(root)[0]?.reproducibility_score).toBe(0.75);
    Bun.sleepSync(60);
    writeFileSync(report, JSON.stringify({ ors_score: 0.5, n_runs: 3, degraded: false }));
    expect(listCheckpointIndex(root)[0]?.reproducibility_score).toBe(0.5);
  });

  test('notices the reports of the claim gate: a draft, then the final one beside it, then a rewrite in place', () => {
    const ck = writeCheckpoint(root, { runId: '20260101000000_a' });
    const evaluation = join(ck, 'evaluation');
    const gate = (phase: string, status: string) => JSON.stringify({ gate: 'claim_evidence_hard_gate', phase, policy: { mode: 'warn' }, status, should_block: false, errors: [], warnings: [] });
    // the evaluation directory exists first: a report written into it leaves the checkpoint's own directory as it was
    mkdirSync(evaluation);
    Bun.sleepSync(60);
    expect(listCheckpointIndex(root)[0]?.claim_gate).toBeNull();
    writeFileSync(join(evaluation, 'claim_evidence_hard_gate_draft.json'), gate('draft', 'warn'));
    expect(listCheckpointIndex(root)[0]?.claim_gate).toMatchObject({ phase: 'draft', status: 'warn' });
    Bun.sleepSync(60);
    listCheckpointIndex(root);
    writeFileSync(join(evaluation, 'claim_evidence_hard_gate_final.json'), gate('final', 'pass'));
    expect(listCheckpointIndex(root)[0]?.claim_gate).toMatchObject({ phase: 'final', status: 'pass' });
    Bun.sleepSync(60);
    listCheckpointIndex(root);
    writeFileSync(join(evaluation, 'claim_evidence_hard_gate_final.json'), gate('final', 'fail'));
    expect(listCheckpointIndex(root)[0]?.claim_gate).toMatchObject({ phase: 'final', status: 'fail' });
  });

  test('running follows the recorded process on every call, with no file changing', async () => {
    const p = sleeper();
    writeCheckpoint(root, { runId: '20260101000000_live', pid: p.pid });
    Bun.sleepSync(60);
    expect(listCheckpointIndex(root)[0]?.status).toBe('running');
    expect(listCheckpointIndex(root)[0]?.status).toBe('running');
    p.kill();
    await p.exited;
    expect(listCheckpointIndex(root)[0]?.status).toBe('done');
  });

  test('a PID file written later makes the checkpoint running', () => {
    const ck = writeCheckpoint(root, { runId: '20260101000000_later' });
    Bun.sleepSync(60);
    expect(listCheckpointIndex(root)[0]?.status).toBe('done');
    writeFileSync(join(ck, '.ari_pid'), `${sleeper().pid}\n`);
    expect(listCheckpointIndex(root)[0]?.status).toBe('running');
  });

  test('a link to a checkpoint elsewhere is not listed: no route could open it', () => {
    const elsewhere = writeCheckpoint(ws, { runId: '20260101000000_elsewhere', nodes: 2 });
    symlinkSync(elsewhere, join(root, '20260101000000_linked'));
    writeCheckpoint(root, { runId: '20260101000000_here', nodes: 3 });
    expect(listCheckpointIndex(root).map((e) => [e.id, e.node_count])).toEqual([['20260101000000_here', 3]]);
  });
});
