// Rules of the dashboard that hold across routes: where it listens, what /state makes of odd
// records, and where the access log goes as the active checkpoint changes.
import { afterEach, beforeEach, expect, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { removeDir, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';

let dir: string;
let root: string;
let viz: Viz | undefined;
beforeEach(() => {
  dir = tempDir();
  root = join(dir, 'workspace', 'checkpoints');
});
afterEach(async () => {
  await viz?.stop();
  viz = undefined;
  removeDir(dir);
});

/** Lines of a checkpoint's access log mentioning `marker`, once the batched writer has flushed. */
async function logged(ck: string, marker: string): Promise<string[]> {
  await Bun.sleep(400);
  const file = join(ck, 'viz_access.jsonl');
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l.includes(marker)) : [];
}

test('by default it listens on 127.0.0.1 only: another address of this machine is refused', async () => {
  writeCheckpoint(root);
  viz = await startViz([join(dir, 'workspace')], { cwd: dir });
  const external = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
  expect(external).toBeDefined();
  const port = Number(new URL(viz.base).port);
  const outcome = await new Promise<string>((done) => {
    const socket = connect(port, external ?? '', () => {
      socket.destroy();
      done('connected');
    });
    socket.on('error', (err: NodeJS.ErrnoException) => done(err.code ?? 'error'));
  });
  expect(outcome).toBe('ECONNREFUSED');
  expect((await viz.get('/state')).status).toBe(200);
});

test('/state never answers cost as a bare number, even when cost_summary.json is one', async () => {
  const ck = writeCheckpoint(root);
  writeFileSync(join(ck, 'cost_summary.json'), '1.25');
  viz = await startViz([ck], { cwd: dir });
  const { status, body } = await viz.get('/state');
  expect(status).toBe(200);
  expect(body).toMatchObject({ running_pid: null, is_running: false, exit_code: null, running: false, pid: null });
  expect(typeof body.cost === 'undefined' || (typeof body.cost === 'object' && body.cost !== null)).toBe(true);
});

test('after a switch, requests are logged in the newly active checkpoint only', async () => {
  const a = writeCheckpoint(root, { runId: '20261101000000_a' });
  const b = writeCheckpoint(root, { runId: '20261102000000_b' });
  viz = await startViz([join(dir, 'workspace')], { cwd: dir });
  expect((await viz.post('/api/switch-checkpoint', { id: '20261101000000_a' })).status).toBe(200);
  await viz.get('/state?after-switch');
  expect(await logged(a, 'after-switch')).toHaveLength(1);
  expect(await logged(b, 'after-switch')).toHaveLength(0);
});

test('a deleted active checkpoint stays deleted: the access log does not bring it back', async () => {
  const ck = writeCheckpoint(root, { runId: '20261103000000_doomed' });
  viz = await startViz([ck], { cwd: dir });
  await viz.get('/state?before-delete');
  expect((await viz.post('/api/delete-checkpoint', { id: '20261103000000_doomed' })).status).toBe(200);
  await viz.get('/state?after-delete');
  await Bun.sleep(500); // past the log's 200 ms flush
  expect(existsSync(ck)).toBe(false);
  expect((await viz.get('/state')).body.status_label).toBe('idle');
});
