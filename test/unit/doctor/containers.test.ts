// Container runtimes found and answering, and the configured image on the runtime the mode
// selects: against the real docker or podman with the test image, and a PATH without any runtime.
import { afterAll, describe, expect, test } from 'bun:test';
import { checkContainers } from '../../../src/doctor/containers.ts';
import { ensureContainerRuntime, pathWith, removePathDirs } from '../../support/container.ts';
import { project, removeBoxes } from './helpers.ts';

afterAll(() => {
  removeBoxes();
  removePathDirs();
});

const found = await ensureContainerRuntime();
const real = 'reason' in found ? null : found;
const item = (rows: Awaited<ReturnType<typeof checkContainers>>, name: string) => rows.find((r) => r.item === name);

describe('checkContainers', () => {
  test('no image configured: every runtime is optional and the image row is skipped', async () => {
    const { cfg } = project({ PATH: pathWith([]) });
    const rows = await checkContainers(cfg);
    expect(rows.map((r) => [r.item, r.status, r.needed])).toEqual([
      ['docker', 'skip', false],
      ['podman', 'skip', false],
      ['apptainer', 'skip', false],
      ['singularity', 'skip', false],
      ['image', 'skip', false],
    ]);
  });

  test('an image configured where no runtime is usable fails with the fix', async () => {
    const { cfg } = project({ PATH: pathWith([]), SVC_CONTAINER_IMAGE: 'busybox:1' });
    expect(item(await checkContainers(cfg), 'image')).toMatchObject({ status: 'fail', needed: true, fix: 'install podman or start dockerd, or set container.mode to none' });
  });

  test('container.mode naming a runtime that is not installed fails on that runtime and the image', async () => {
    const { cfg } = project({ PATH: pathWith([]), SVC_CONTAINER_IMAGE: 'busybox:1' }, 'container:\n  mode: podman\n');
    const rows = await checkContainers(cfg);
    expect(item(rows, 'podman')).toMatchObject({ status: 'fail', needed: true, detail: 'podman is not on PATH' });
    expect(item(rows, 'image')?.detail).toBe('busybox:1: container.mode is podman but podman is not installed (install it or set container.mode to auto or none)');
  });

  test.skipIf(real === null)('the real runtime answers, and the test image is in its store', async () => {
    const { cfg } = project({ SVC_CONTAINER_IMAGE: real!.image }, `container:\n  mode: ${real!.runtime}\n`);
    const rows = await checkContainers(cfg);
    expect(item(rows, real!.runtime)).toMatchObject({ status: 'ok', needed: true });
    expect(item(rows, 'image')).toEqual({ area: 'containers', item: 'image', status: 'ok', detail: `${real!.image} is in ${real!.runtime}'s store`, needed: true });
  });

  test.skipIf(real === null)('an image not in the store: a warning when a run would pull it, a failure when pull is never', async () => {
    const pulled = project({ SVC_CONTAINER_IMAGE: 'svc-test-absent:doctor' }, `container:\n  mode: ${real!.runtime}\n  pull: on_start\n`);
    expect(item(await checkContainers(pulled.cfg), 'image')).toMatchObject({ status: 'warn', fix: `${real!.runtime} pull svc-test-absent:doctor to fetch it now` });
    const never = project({ SVC_CONTAINER_IMAGE: 'svc-test-absent:doctor' }, `container:\n  mode: ${real!.runtime}\n  pull: never\n`);
    expect(item(await checkContainers(never.cfg), 'image')).toMatchObject({ status: 'fail', needed: true, fix: `${real!.runtime} pull svc-test-absent:doctor, or set container.pull to on_start` });
  });
});
