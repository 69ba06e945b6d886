import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runState } from '../../../../src/core/checkpoint/state.ts';
import { writeCheckpoint } from '../../../support/checkpoint.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

let dir: string;
const sleepers: Bun.Subprocess[] = [];
beforeEach(() => {
  dir = tempDir();
});
afterEach(async () => {
  for (const p of sleepers.splice(0)) {
    p.kill();
    await p.exited;
  }
  removeDir(dir);
});

const model = () => ({ provider: 'p', model: 'm' });
/** One poll, as a request in its own turn of the event loop (within a turn, checks are shared). */
const poll = async (ck: string | null) => {
  await new Promise((done) => setImmediate(done));
  return runState(ck, model);
};

describe('runState', () => {
  test('follows the tree as nodes are written, in place', async () => {
    const ck = writeCheckpoint(dir, { nodes: 4 });
    await Bun.sleep(60);
    expect((await poll(ck)).nodes?.total).toBe(4);
    expect((await poll(ck)).nodes?.total).toBe(4);
    const tree = JSON.parse(readFileSync(join(ck, 'tree.json'), 'utf8'));
    tree.nodes.push({ id: 'node_new', status: 'running' });
    writeFileSync(join(ck, 'tree.json'), JSON.stringify(tree));
    expect((await poll(ck)).nodes).toMatchObject({ total: 5, running: 1 });
  });

  test('notices files that appear: the paper phase marker, then the review', async () => {
    const ck = writeCheckpoint(dir);
    await Bun.sleep(60);
    expect((await poll(ck)).phase).toBe('bfts');
    writeFileSync(join(ck, '.pipeline_started'), '');
    expect((await poll(ck)).phase).toBe('paper');
    await Bun.sleep(60);
    expect((await poll(ck)).phase).toBe('paper');
    writeFileSync(join(ck, 'review_report.json'), '{}');
    expect((await poll(ck)).phase).toBe('review');
  });

  test('falls back to nodes_tree.json when tree.json is damaged, and then follows it', async () => {
    const ck = writeCheckpoint(dir, { nodes: 2 });
    const nodes = (n: number) => JSON.stringify({ nodes: Array.from({ length: n }, (_, i) => ({ id: `n${i}`, status: 'success' })) });
    writeFileSync(join(ck, 'nodes_tree.json'), nodes(5));
    await Bun.sleep(60);
    expect((await poll(ck)).nodes?.total).toBe(2);
    writeFileSync(join(ck, 'tree.json'), '');
    expect((await poll(ck)).nodes?.total).toBe(5);
    await Bun.sleep(60);
    await poll(ck);
    writeFileSync(join(ck, 'nodes_tree.json'), nodes(6));
    expect((await poll(ck)).nodes?.total).toBe(6);
  });

  test('running while the recorded process lives, checked on every call', async () => {
    const p = Bun.spawn(['sleep', '60']);
    sleepers.push(p);
    const ck = writeCheckpoint(dir, { pid: p.pid });
    await Bun.sleep(60);
    expect(await poll(ck)).toMatchObject({ running_pid: p.pid, is_running: true, status: 'running', status_label: 'running: bfts' });
    p.kill();
    await p.exited;
    expect(await poll(ck)).toMatchObject({ running_pid: null, is_running: false, status: 'done', status_label: 'done' });
  });

  test('a PID file written after the first poll counts', async () => {
    const ck = writeCheckpoint(dir);
    await Bun.sleep(60);
    expect((await poll(ck)).is_running).toBe(false);
    const p = Bun.spawn(['sleep', '60']);
    sleepers.push(p);
    writeFileSync(join(ck, '.svc_pid'), `${p.pid}\n`);
    expect((await poll(ck)).running_pid).toBe(p.pid);
  });

  test('calls within one turn share one check; the next turn sees the change', async () => {
    const ck = writeCheckpoint(dir, { nodes: 3 });
    await Bun.sleep(60);
    expect((await poll(ck)).nodes?.total).toBe(3);
    const tree = JSON.parse(readFileSync(join(ck, 'tree.json'), 'utf8'));
    tree.nodes.push({ id: 'node_more' });
    writeFileSync(join(ck, 'tree.json'), JSON.stringify(tree));
    // same turn as the poll above: requests handled together get the same answer
    expect(runState(ck, model).nodes?.total).toBe(3);
    expect((await poll(ck)).nodes?.total).toBe(4);
  });
});
