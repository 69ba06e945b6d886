// Where a search's nodes will run, decided once before the first node: the executor's submit
// command and partition, the container runtime; each missing piece one line with its fix, or the
// fallback SVC_PHASE1_ALLOW_FALLBACK=1 asks for.
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/core/config/config.ts';
import type { Env } from '../../../src/core/config/env-vars.ts';
import { UnavailableError } from '../../../src/core/errors.ts';
import { checkNodeSandbox } from '../../../src/sandbox/node-sandbox.ts';
import { lacks } from '../../support/components.ts';
import { ensureContainerRuntime, pathWith, removePathDirs } from '../../support/container.ts';

const box = mkdtempSync(join(tmpdir(), 'svc-node-sandbox-'));
afterAll(() => {
  rmSync(box, { recursive: true, force: true });
  removePathDirs();
});

const check = (env: Env) => {
  const full = { HOME: box, ...env };
  return checkNodeSandbox(loadConfig({ cwd: box, env: full }), full);
};

async function refusal(p: Promise<unknown>): Promise<UnavailableError> {
  const err = await p.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(UnavailableError);
  return err as UnavailableError;
}

describe('the executor', () => {
  test('local needs nothing', async () => {
    expect(await check({ PATH: pathWith([]) })).toEqual({ executor: 'local', partition: null, cpus: null, container: null, warnings: [] });
  });

  test('slurm without sbatch fails loud naming the override; with it, the nodes run locally and a warning says so', async () => {
    const env = { PATH: pathWith([]), SVC_EXECUTOR: 'slurm' };
    const err = await refusal(check(env));
    expect(err.message).toBe('sandbox slurm: sbatch is not installed');
    expect(err.hint).toBe('set SVC_PHASE1_ALLOW_FALLBACK=1 to run locally instead');
    const fallen = await check({ ...env, SVC_PHASE1_ALLOW_FALLBACK: '1' });
    expect(fallen).toMatchObject({ executor: 'local', partition: null, warnings: [expect.stringContaining('running locally because SVC_PHASE1_ALLOW_FALLBACK=1')] });
  });

  test.each([
    ['pbs', 'qsub'],
    ['lsf', 'bsub'],
  ])('%s needs %s', async (executor, submit) => {
    const err = await refusal(check({ PATH: pathWith([]), SVC_EXECUTOR: executor }));
    expect(err.message).toBe(`executor ${executor}: ${submit} is not installed`);
    // each command is a job of its own, asking for the node's CPUs
    expect(await check({ PATH: pathWith([submit]), SVC_EXECUTOR: executor, SVC_SLURM_CPUS: '2' })).toMatchObject({ executor, cpus: 2, warnings: [] });
    expect(await check({ PATH: pathWith([]), SVC_EXECUTOR: executor, SVC_PHASE1_ALLOW_FALLBACK: '1' })).toMatchObject({ executor: 'local' });
  });
});

describe.skipIf(lacks('slurm'))('slurm on the real cluster', () => {
  const PATH = process.env.PATH ?? '';

  test("the scheduler's partition when none is named, and the CPUs asked", async () => {
    expect(await check({ PATH, SVC_EXECUTOR: 'slurm', SVC_SLURM_CPUS: '1' })).toEqual({ executor: 'slurm', partition: 'debug', cpus: 1, container: null, warnings: [] });
  });

  test('more CPUs than a node of the partition has: refused before anything starts, saying what fits', async () => {
    const err = await refusal(check({ PATH, SVC_EXECUTOR: 'slurm', SVC_SLURM_CPUS: '4096' }));
    expect(err.message).toMatch(/^each node asks for 4096 CPUs, but the nodes of partition debug have at most \d+$/);
    expect(err.hint).toMatch(/^set SVC_SLURM_CPUS \(or resources.cpus\) to at most \d+$/);
  });

  test('a named partition that does not exist is refused, listing the real ones', async () => {
    const err = (await check({ PATH, SVC_EXECUTOR: 'slurm', SVC_SLURM_PARTITION: 'gpu-nope' }).catch((e: Error) => e)) as Error;
    expect(err.message).toContain('gpu-nope');
    expect(err.message).toContain('debug');
  });
});

const runtime = await ensureContainerRuntime();
const real = 'reason' in runtime ? null : runtime;

describe('the container', () => {
  test('an image with no runtime here fails loud; with the override the nodes run without it', async () => {
    const env = { PATH: pathWith([]), SVC_CONTAINER_IMAGE: 'busybox:1.36' };
    const err = await refusal(check(env));
    expect(err.message).toBe('container image busybox:1.36: no container runtime here (docker with its daemon, podman, apptainer or singularity)');
    expect(err.hint).toBe('set SVC_PHASE1_ALLOW_FALLBACK=1 to run without the container instead');
    expect(await check({ ...env, SVC_PHASE1_ALLOW_FALLBACK: '1' })).toMatchObject({ container: null, warnings: [expect.stringContaining('running without the container')] });
  });

  test.skipIf(real === null)('an image here that cannot be pulled (no registry has it): used, with a warning; its id for the node reports', async () => {
    const found = await check({ PATH: process.env.PATH ?? '', SVC_CONTAINER_IMAGE: real!.image });
    expect(found.container).toMatchObject({ image: real!.image, pull: 'on_start', digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
    expect(found.container?.runtime.runtime).toBe(real!.runtime);
    expect(found.warnings).toEqual([expect.stringContaining(`container image ${real!.image} was not pulled (`)]);
  });

  test.skipIf(real === null)('pull never: an image here is used as it is; one that is not here fails loud', async () => {
    const wf = join(box, 'never.yaml');
    writeFileSync(wf, 'container:\n  mode: auto\n  pull: never\n');
    const withPolicy = (image: string) => {
      const full = { HOME: box, PATH: process.env.PATH ?? '', SVC_CONTAINER_IMAGE: image };
      return checkNodeSandbox(loadConfig({ cwd: box, env: full, configPath: wf }), full);
    };
    expect(await withPolicy(real!.image)).toMatchObject({ container: { pull: 'never', digest: expect.stringMatching(/^sha256:/) }, warnings: [] });
    const err = await refusal(withPolicy('svc-test-absent:never'));
    expect(err.message).toBe('container image svc-test-absent:never is not on this machine and container.pull is never');
    expect(err.hint).toBe(`pull it (${real!.runtime} pull svc-test-absent:never) or set container.pull to on_start`);
  });

  test.skipIf(real === null)('an image neither here nor pullable fails loud before anything runs', async () => {
    const err = await refusal(check({ PATH: process.env.PATH ?? '', SVC_CONTAINER_IMAGE: 'svc-test-absent:latest' }));
    expect(err.message).toStartWith('container image svc-test-absent:latest cannot be pulled (');
  });

  test('no image: no container, whatever the mode', async () => {
    expect((await check({ PATH: pathWith([]) })).container).toBeNull();
  });
});
