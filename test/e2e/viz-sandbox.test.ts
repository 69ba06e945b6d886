import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { removeDir, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';

let dir: string;
let viz: Viz | null;
beforeEach(() => {
  dir = tempDir();
  mkdirSync(join(dir, 'workspace', 'checkpoints'), { recursive: true });
  viz = null;
});
afterEach(async () => {
  await viz?.stop();
  removeDir(dir);
});

const open = async (env: Record<string, string> = {}) => (viz = await startViz([], { cwd: dir, env: { SVC_ROOT: dir, ...env } }));

describe('schedulers and containers through the dashboard', () => {
  test('GET /api/scheduler/detect reports what this machine has', async () => {
    const { status, body } = await (await open()).get('/api/scheduler/detect');
    expect(status).toBe(200);
    expect(body.local).toBe(true);
    expect(body.slurm.found).toBe(Bun.which('sbatch') !== null);
    expect(body.docker.found).toBe(Bun.which('docker') !== null);
    expect(body.apptainer).toEqual({ found: Bun.which('apptainer') !== null });
    expect(body.pbs).toEqual({ found: Bun.which('qsub') !== null });
  });

  test('GET /api/slurm/partitions: the partitions from sinfo, or one line saying sinfo is missing', async () => {
    const none = await (await open({ PATH: '/nonexistent' })).get('/api/slurm/partitions');
    expect(none.status).toBe(503);
    expect(none.body.error).toMatch(/sinfo/);
    await viz?.stop();
    if (Bun.which('sinfo') === null) return;
    const some = await (await open()).get('/api/slurm/partitions');
    expect(some.status).toBe(200);
    expect(some.body.partitions.length).toBeGreaterThan(0);
  });

  test('GET /api/container/info and /images; POST /api/container/pull without an image is 409', async () => {
    const v = await open({ SVC_CONTAINER_IMAGE: '' });
    const info = await v.get('/api/container/info');
    expect(info.status).toBe(200);
    expect(info.body.image ?? null).toBeNull();
    expect((await v.get('/api/container/images')).status).toBe(200);
    expect(await v.post('/api/container/pull')).toEqual({ status: 409, body: { error: 'no container image is configured (set SVC_CONTAINER_IMAGE or container.image)' } });
    expect((await v.get('/api/container/pull')).status).toBe(405);
    await v.stop();
    const aliased = await open({ SVC_CONTAINER_IMAGE: 'bench-env' });
    expect((await aliased.get('/api/container/info')).body.image).toBe('bench-env:latest');
  });
});
