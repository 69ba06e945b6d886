import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { removeDir, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';

const FIXTURE = resolve(import.meta.dir, '../fixtures/ari-workspace');
const RUN = '20250101000000_ari_run';

let dir: string;
let experiments: string;
let viz: Viz;

beforeAll(async () => {
  dir = tempDir();
  const ws = join(dir, 'workspace');
  cpSync(FIXTURE, ws, { recursive: true });
  experiments = join(ws, 'experiments');
  const node = (run: string, id: string, report?: string) => {
    mkdirSync(join(experiments, run, id), { recursive: true });
    if (report !== undefined) writeFileSync(join(experiments, run, id, 'node_report.json'), report);
  };
  node(RUN, 'node_noreport');
  node(RUN, 'node_broken', '{"schema_version": 1, "node_id": "node_bro');
  node(RUN, 'node_array', '[1, 2, 3]');
  mkdirSync(join(experiments, RUN, 'node_dir', 'node_report.json'), { recursive: true });
  // the older layout: nodes under the run id without its timestamp
  node('legacy_run', 'node_old', JSON.stringify({ schema_version: 1, node_id: 'node_old', label: 'draft', depth: 0, status: 'error' }));
  mkdirSync(join(dir, 'elsewhere', 'node_x'), { recursive: true });
  writeFileSync(join(dir, 'elsewhere', 'node_x', 'node_report.json'), '{"secret": true}');
  symlinkSync(join(dir, 'elsewhere'), join(experiments, 'linked_run'));
  viz = await startViz([ws], { cwd: dir });
});
afterAll(async () => {
  await viz.stop();
  removeDir(dir);
});

describe('GET /api/nodes/:run_id/:node_id/report', () => {
  test('returns the parsed node_report.json of the ARI workspace fixture', async () => {
    const r = await viz.get(`/api/nodes/${RUN}/node_b/report`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(JSON.parse(readFileSync(join(FIXTURE, 'experiments', RUN, 'node_b', 'node_report.json'), 'utf8')));
    expect(r.body).toMatchObject({ schema_version: 1, node_id: 'node_b', status: 'success', metrics: { x: 2 } });
  });

  test('a run of the older layout is found under its name without the timestamp', async () => {
    const r = await viz.get('/api/nodes/20240101000000_legacy_run/node_old/report');
    expect(r).toEqual({ status: 200, body: { schema_version: 1, node_id: 'node_old', label: 'draft', depth: 0, status: 'error' } });
  });

  test.each([
    ['20991231000000_nope/node_b', `unknown run 20991231000000_nope`],
    [`${RUN}/node_zzz`, `unknown node node_zzz in run ${RUN}`],
    [`${RUN}/node_noreport`, `node node_noreport of run ${RUN} has no report`],
  ])('%s is 404', async (ids, message) => {
    const r = await viz.get(`/api/nodes/${ids}/report`);
    expect(r.status).toBe(404);
    expect(r.body.error).toStartWith(message);
  });

  test.each([
    ['a report that is not JSON', 'node_broken', 'is not valid JSON'],
    ['a report that is not an object', 'node_array', 'is not a JSON object'],
    ['a report that is a directory', 'node_dir', 'is not a regular file'],
  ])('%s is 422 naming the file', async (_what, node, message) => {
    const r = await viz.get(`/api/nodes/${RUN}/${node}/report`);
    expect(r.status).toBe(422);
    expect(r.body.error).toContain(join(experiments, RUN, node, 'node_report.json'));
    expect(r.body.error).toContain(message);
  });

  test.each([
    `${encodeURIComponent('../x')}/node_b`,
    `${RUN}/${encodeURIComponent('../../checkpoints')}`,
    `${encodeURIComponent('/etc/passwd')}/node_b`,
    `${RUN}/node${encodeURIComponent('\u0000')}b`,
    `${RUN}/a..b`,
    `.hidden/node_b`,
    `${RUN}/${encodeURIComponent('node_b/x')}`,
  ])('ids %s are 400', async (ids) => {
    const r = await viz.get(`/api/nodes/${ids}/report`);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/^(run|node) id '.*' is not valid/);
  });

  test('a run directory that is a symlink out of experiments/ is refused', async () => {
    const r = await viz.get('/api/nodes/linked_run/node_x/report');
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('is outside');
    expect(JSON.stringify(r.body)).not.toContain('secret');
  });
});
