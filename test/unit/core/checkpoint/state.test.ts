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

describe('runState', () => {
  test('follows the tree as nodes are written, in place', () => {
    const ck = writeCheckpoint(dir, { nodes: 4 });
    Bun.sleepSync(60);
    expect(runState(ck, model).nodes?.total).toBe(4);
    expect(runState(ck, model).nodes?.total).toBe(4);
    const tree = JSON.parse(readFileSync(join(ck, 'tree.json'), 'utf8'));
    tree.nodes.push({ id: 'node_new', status: 'running' });
    writeFileSync(join(ck, 'tree.json'), JSON.stringify(tree));
    expect(runState(ck, model).nodes).toMatchObject({ total: 5, running: 1 });
  });

  test('notices files that appear: the paper phase marker, then the review', () => {
    const ck = writeCheckpoint(dir);
    Bun.sleepSync(60);
    expect(runState(ck, model).phase).toBe('bfts');
    writeFileSync(join(ck, '.pipeline_started'), '');
    expect(runState(ck, model).phase).toBe('paper');
    Bun.sleepSync(60);
    expect(runState(ck, model).phase).toBe('paper');
    writeFileSync(join(ck, 'review_report.json'), '{}');
    expect(runState(ck, model).phase).toBe('review');
  });

  test('falls back to nodes_tree.json when tree.json is damaged, and then follows it', () => {
    const ck = writeCheckpoint(dir, { nodes: 2 });
    const nodes = (n: number) => JSON.stringify({ nodes: Array.from({ length: n }, (_, i) => ({ id: `n${i}`, status: 'success' })) });
    writeFileSync(join(ck, 'nodes_tree.json'), nodes(5));
    Bun.sleepSync(60);
    expect(runState(ck, model).nodes?.total).toBe(2);
    writeFileSync(join(ck, 'tree.json'), '');
    expect(runState(ck, model).nodes?.total).toBe(5);
    Bun.sleepSync(60);
    runState(ck, model);
    writeFileSync(join(ck, 'nodes_tree.json'), nodes(6));
    expect(runState(ck, model).nodes?.total).toBe(6);
  });

  test('running while the recorded process lives, checked on every call', async () => {
    const p = Bun.spawn(['sleep', '60']);
    sleepers.push(p);
    const ck = writeCheckpoint(dir, { pid: p.pid });
    Bun.sleepSync(60);
    expect(runState(ck, model)).toMatchObject({ running_pid: p.pid, is_running: true, status: 'running', status_label: 'running: bfts' });
    p.kill();
    await p.exited;
    expect(runState(ck, model)).toMatchObject({ running_pid: null, is_running: false, status: 'done', status_label: 'done' });
  });

  test('a PID file written after the first poll counts', () => {
    const ck = writeCheckpoint(dir);
    Bun.sleepSync(60);
    expect(runState(ck, model).is_running).toBe(false);
    const p = Bun.spawn(['sleep', '60']);
    sleepers.push(p);
    writeFileSync(join(ck, '.svc_pid'), `${p.pid}\n`);
    expect(runState(ck, model).running_pid).toBe(p.pid);
  });
});
