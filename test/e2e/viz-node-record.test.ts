import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { removeDir, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';

const RUN = '20261101120000_records';
const BROKEN = '20261101130000_broken';

let dir: string;
let viz: Viz;
let tree: { nodes: Record<string, unknown>[] };

beforeAll(async () => {
  dir = tempDir();
  const checkpoints = join(dir, 'workspace', 'checkpoints');
  const ck = writeCheckpoint(checkpoints, { runId: RUN, nodes: 6 });
  tree = JSON.parse(readFileSync(join(ck, 'tree.json'), 'utf8'));
  writeFileSync(join(writeCheckpoint(checkpoints, { runId: BROKEN, nodes: 1 }), 'tree.json'), '{"nodes": [');
  viz = await startViz([checkpoints], { cwd: dir });
});
afterAll(async () => {
  await viz.stop();
  removeDir(dir);
});

describe('GET /api/nodes/:run_id/:node_id', () => {
  test("answers the node's whole record of the tree file, its trace with it", async () => {
    const r = await viz.get(`/api/nodes/${RUN}/node_00000003`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(tree.nodes[3]);
    expect(r.body.trace_log).toHaveLength(4);
  });

  test.each([
    [`${RUN}/node_zzz`, `no node node_zzz in the tree of ${RUN}`],
    ['20991231000000_nope/node_00000001', 'not found'],
    [`${BROKEN}/node_${BROKEN}_root`, `${BROKEN} has no readable tree file`],
  ])('%s is 404 with the reason', async (ids, message) => {
    const r = await viz.get(`/api/nodes/${ids}`);
    expect(r.status).toBe(404);
    expect(r.body.error).toStartWith(message);
  });
});

describe('GET /api/checkpoint/:id/summary?nodes=outline', () => {
  test('lists every node with only the fields a drawing of the tree needs', async () => {
    const r = await viz.get(`/api/checkpoint/${RUN}/summary?nodes=outline`);
    expect(r.status).toBe(200);
    expect(r.body.nodes_list).toEqual(tree.nodes.map((n) => ({ id: n.id, parent_id: n.parent_id, status: n.status, label: n.label, name: n.name, metrics: n.metrics })));
    // the rest of the summary is the same as with the whole records
    const whole = await viz.get(`/api/checkpoint/${RUN}/summary?nodes=1`);
    expect(whole.body.nodes_list[3].trace_log).toHaveLength(4);
    expect({ ...r.body, nodes_list: null }).toEqual({ ...whole.body, nodes_list: null });
  });

  test('another value of nodes is a 400 naming the values it takes', async () => {
    const r = await viz.get(`/api/checkpoint/${RUN}/summary?nodes=some`);
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('nodes');
  });
});
