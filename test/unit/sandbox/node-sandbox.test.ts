// Where a search's nodes will run, decided once before the first node: the executor's submit
// command and partition, the container runtime; each missing piece one line with its fix, or the
// fallback SVC_PHASE1_ALLOW_FALLBACK=1 asks for.
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

/** With settings.json of a project of its own holding `saved`. */
const checkSaved = (env: Env, saved: Record<string, unknown>) => {
  const dir = mkdtempSync(join(box, 'saved-'));
  mkdirSync(join(dir, 'workspace'));
  writeFileSync(join(dir, 'workspace', 'settings.json'), JSON.stringify(saved));
  const full = { HOME: dir, ...env };
  return checkNodeSandbox(loadConfig({ cwd: dir, env: full }), full);
};

async function refusal(p: Promise<unknown>): Promise<UnavailableError> {
  const err = await p.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(UnavailableError);
  return err as UnavailableError;
}

describe('the executor', () => {
  test('local needs nothing', async () => {
    expect(await check({ PATH: pathWith([]) })).toEqual({ executor: 'local', partition: null, cpus: null, memGb: null, gpus: null, container: null, warnings: [] });
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
    expect(await check({ PATH, SVC_EXECUTOR: 'slurm', SVC_SLURM_CPUS: '1' })).toEqual({ executor: 'slurm', partition: 'debug', cpus: 1, memGb: null, gpus: 0, container: null, warnings: [] });
  });

  test('GPUs of a partition without generic resources: refused naming the override; with it, none and a warning', async () => {
    const env = { PATH, SVC_EXECUTOR: 'slurm', SVC_SLURM_CPUS: '1', SVC_SLURM_GPUS: '1' };
    const err = await refusal(check(env));
    expect(err.message).toBe('1 GPU(s) requested but partition debug reports no generic resources (sinfo -o %G)');
    expect(err.hint).toBe('set SVC_SLURM_ALLOW_NO_GRES=1 to submit without the GPU request');
    const dropped = await check({ ...env, SVC_SLURM_ALLOW_NO_GRES: '1' });
    expect(dropped).toMatchObject({ executor: 'slurm', gpus: 0, warnings: [expect.stringContaining('submitting without GPUs because SVC_SLURM_ALLOW_NO_GRES=1')] });
  });

  test('more memory than a node of the partition has: refused, saying what fits; what fits is asked for', async () => {
    const env = { PATH, SVC_EXECUTOR: 'slurm', SVC_SLURM_CPUS: '1' };
    const err = await refusal(checkSaved(env, { slurm_memory_gb: 100_000 }));
    expect(err.message).toMatch(/^each node asks for 100000 GB of memory, but the nodes of partition debug have at most \d+ MB$/);
    expect(err.hint).toMatch(/^set slurm_memory_gb \(svc settings --mem\) to at most [\d.]+$/);
    expect(await checkSaved(env, { slurm_memory_gb: 0.1 })).toMatchObject({ memGb: 0.1, warnings: [] });
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

describe('what each node asks of a partition, against what its nodes give', () => {
  // a stand-in sinfo answering for one partition of 30 minutes whose nodes have 4 CPUs, 8000 MB and 2 GPUs
  const cluster = pathWith(
    ['sinfo', 'sbatch'],
    `case "$*" in
  *-N*) echo '4|8000|30:00' ;;
  *'%P|'*) echo 'short*|up|30:00|1|gpu:a100:2(S:0-1)' ;;
  *%G*) echo 'gpu:a100:2(S:0-1)' ;;
  *%P*) echo 'short*' ;;
esac`,
  );
  const env = { PATH: cluster, SVC_EXECUTOR: 'slurm' };

  test('a node budget longer than the time limit: refused, saying the limit and the fix', async () => {
    const err = await refusal(check({ ...env, SVC_TIMEOUT_NODE: '7200' }));
    expect(err.message).toBe('each node holds its allocation for 7260 s (SVC_TIMEOUT_NODE 7200 s and 60 s to end it), but partition short allows at most 30:00 (1800 s)');
    expect(err.hint).toBe('lower SVC_TIMEOUT_NODE (or bfts.timeout_node) to at most 1740 s, or choose a partition with a longer time limit (SVC_SLURM_PARTITION)');
    // sbatch asks for whole minutes: one second more is a minute more
    await refusal(check({ ...env, SVC_TIMEOUT_NODE: '1741' }));
  });

  test('what fits is asked for: the GPUs of a partition that has them are kept', async () => {
    expect(await check({ ...env, SVC_TIMEOUT_NODE: '1740', SVC_SLURM_CPUS: '4', SVC_SLURM_GPUS: '2' })).toEqual({ executor: 'slurm', partition: 'short', cpus: 4, memGb: null, gpus: 2, container: null, warnings: [] });
  });

  test('CPUs and memory are checked against the largest node', async () => {
    expect((await refusal(check({ ...env, SVC_TIMEOUT_NODE: '60', SVC_SLURM_CPUS: '5' }))).message).toBe('each node asks for 5 CPUs, but the nodes of partition short have at most 4');
    expect((await refusal(checkSaved({ ...env, SVC_TIMEOUT_NODE: '60' }, { slurm_memory_gb: 8 }))).message).toBe('each node asks for 8 GB of memory, but the nodes of partition short have at most 8000 MB');
    expect(await checkSaved({ ...env, SVC_TIMEOUT_NODE: '60' }, { slurm_memory_gb: 7.8 })).toMatchObject({ memGb: 7.8 });
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

  test.skipIf(real === null)("the workflow's container.network is the node's, off unless it says so", async () => {
    const withNetwork = (yaml: string) => {
      const wf = join(box, 'network.yaml');
      writeFileSync(wf, `container:\n  pull: never\n${yaml}`);
      const full = { HOME: box, PATH: process.env.PATH ?? '', SVC_CONTAINER_IMAGE: real!.image };
      return checkNodeSandbox(loadConfig({ cwd: box, env: full, configPath: wf }), full);
    };
    expect((await withNetwork('')).container?.network).toBe(false);
    expect((await withNetwork('  network: true\n')).container?.network).toBe(true);
  });

  test.skipIf(real === null)('an image neither here nor pullable fails loud before anything runs', async () => {
    const err = await refusal(check({ PATH: process.env.PATH ?? '', SVC_CONTAINER_IMAGE: 'svc-test-absent:latest' }));
    expect(err.message).toStartWith('container image svc-test-absent:latest cannot be pulled (');
  });

  test('no image: no container, whatever the mode', async () => {
    expect((await check({ PATH: pathWith([]) })).container).toBeNull();
  });
});
