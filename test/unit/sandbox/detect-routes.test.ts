import { afterAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from '../../../src/server/app.ts';
import { ServerContext } from '../../../src/server/context.ts';
import { sandboxRoutes } from '../../../src/server/routes/sandbox.ts';
import { ensureContainerRuntime, pathWith, removePathDirs, TEST_IMAGE } from '../../support/container.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) removeDir(d);
  removePathDirs();
});

/** The dashboard app with the sandbox routes, over a fresh workspace, with `env` as its whole environment. */
function dashboard(env: Record<string, string>) {
  const ws = tempDir();
  dirs.push(ws);
  mkdirSync(join(ws, 'checkpoints'));
  const ctx = new ServerContext({ HOME: ws, ...env }, ws, join(ws, 'checkpoints'), null);
  const app = createApp(ctx).use(sandboxRoutes(ctx));
  const call = async (method: string, path: string) => {
    const res = await app.handle(new Request(`http://127.0.0.1${path}`, { method }));
    return { status: res.status, body: (await res.json()) as any };
  };
  return { ws, get: (p: string) => call('GET', p), post: (p: string) => call('POST', p) };
}

const standIns = (names: string[]): string => pathWith(names);

describe('sandbox routes', () => {
  test('scheduler detect reports what is on PATH', async () => {
    const { get } = dashboard({ PATH: standIns(['singularity']) });
    const r = await get('/api/scheduler/detect');
    expect(r.status).toBe(200);
    expect(r.body.local).toBe(true);
    expect(r.body.slurm).toEqual({ found: false });
    expect(r.body.singularity).toEqual({ found: true, version: 'singularity version 9' });
    expect(r.body.apptainer).toEqual({ found: false });
  });

  test('slurm partitions without sinfo: 503 with one line', async () => {
    const r = await dashboard({ PATH: standIns([]) }).get('/api/slurm/partitions');
    expect(r.status).toBe(503);
    expect(r.body).toEqual({ error: 'sinfo is not installed: no Slurm client on this machine' });
  });

  test.skipIf(Bun.which('sinfo') === null)('slurm partitions from the sinfo of this machine', async () => {
    const r = await dashboard({ PATH: process.env.PATH ?? '' }).get('/api/slurm/partitions');
    expect(r.status).toBe(200);
    expect(r.body.partitions.length).toBeGreaterThan(0);
    expect(typeof r.body.partitions[0].name).toBe('string');
  });

  test('container info: the configured image through its alias, mode, and the runtime auto picks', async () => {
    const r = await dashboard({ PATH: standIns(['apptainer']), SVC_CONTAINER_IMAGE: 'bench-env' }).get('/api/container/info');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ mode: 'auto', pull: 'on_start', image: 'bench-env:latest', runtime: 'apptainer', found: true, version: 'apptainer version 9', daemon: null });
    expect(r.body.runtimes.map((p: { runtime: string; found: boolean }) => [p.runtime, p.found])).toEqual([['docker', false], ['podman', false], ['apptainer', true], ['singularity', false]]);
  });

  test('container images lists the .sif files of the workspace cache, nothing else', async () => {
    const { ws, get } = dashboard({ PATH: standIns([]) });
    mkdirSync(join(ws, 'containers'));
    writeFileSync(join(ws, 'containers', 'b.sif'), 'xx');
    writeFileSync(join(ws, 'containers', 'a.sif'), 'x');
    writeFileSync(join(ws, 'containers', 'notes.txt'), 'x');
    mkdirSync(join(ws, 'containers', 'dir.sif'));
    const r = await get('/api/container/images');
    expect(r.status).toBe(200);
    expect(r.body.files.map((f: { name: string; bytes: number }) => [f.name, f.bytes])).toEqual([['a.sif', 1], ['b.sif', 2]]);
    expect(r.body.docker).toBeUndefined();
  });

  test('pull without a configured image: 409 naming the fix; without a runtime: 503', async () => {
    const none = await dashboard({ PATH: standIns([]) }).post('/api/container/pull');
    expect(none.status).toBe(409);
    expect(none.body.error).toBe('no container image is configured (set SVC_CONTAINER_IMAGE or container.image)');
    const noRuntime = await dashboard({ PATH: standIns([]), SVC_CONTAINER_IMAGE: 'ubuntu:24.04' }).post('/api/container/pull');
    expect(noRuntime.status).toBe(503);
    expect(noRuntime.body.error).toStartWith('no container runtime here');
  });
});

const runtime = await ensureContainerRuntime();
const real = 'reason' in runtime || runtime.runtime !== 'docker' ? null : runtime;
if (real === null) console.error(`real docker route tests skipped: ${'reason' in runtime ? runtime.reason : 'podman only'}`);

describe('sandbox routes with a running docker daemon', () => {
  test.skipIf(real === null)('info shows the daemon, images lists the store', async () => {
    const { get } = dashboard({ PATH: process.env.PATH ?? '' });
    const info = await get('/api/container/info');
    expect(info.body).toMatchObject({ runtime: 'docker', found: true, daemon: true });
    const images = await get('/api/container/images');
    const [repo, tag] = TEST_IMAGE.split(':');
    expect(images.body.docker.images.some((i: { repository: string; tag: string }) => i.repository === repo && i.tag === tag)).toBe(true);
  });

  test.skipIf(real === null)('pull starts in the background and its progress lands in the workspace log', async () => {
    const bin = pathWith([]);
    symlinkSync(real!.binary, join(bin, 'docker'));
    // no registry is reachable from here, so the pull itself fails: its lines and outcome must still be logged
    const { ws, post } = dashboard({ PATH: bin, SVC_CONTAINER_IMAGE: 'bench-env' });
    const r = await post('/api/container/pull');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ started: true, runtime: 'docker', image: 'bench-env:latest', log: join(ws, 'container_pull.log'), command: `${join(bin, 'docker')} pull bench-env:latest` });
    let log = '';
    for (let i = 0; i < 300 && !/\[container pull\] (finished|failed)/.test(log); i++) {
      await Bun.sleep(100);
      log = readFileSync(r.body.log, 'utf8');
    }
    expect(log).toStartWith(`[container pull] started: ${join(bin, 'docker')} pull bench-env:latest\n`);
    expect(log).toMatch(/\[container pull\] (finished: bench-env:latest|failed with exit code \d+: bench-env:latest)\n$/);
    expect(log.split('\n').length).toBeGreaterThan(3);
  });

  test.skipIf(real === null)('an image that reads as an option is refused before docker runs and nothing is logged', async () => {
    const bin = pathWith([]);
    symlinkSync(real!.binary, join(bin, 'docker'));
    for (const image of ['--help', '-v', '--all-tags ubuntu']) {
      const { ws, post } = dashboard({ PATH: bin, SVC_CONTAINER_IMAGE: image });
      const r = await post('/api/container/pull');
      expect(r.status).toBe(400);
      expect(r.body.error).toStartWith(`image '${image}' is not an image reference`);
      expect(existsSync(join(ws, 'container_pull.log'))).toBe(false);
    }
  });
});
