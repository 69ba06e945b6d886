import { afterAll, describe, expect, test } from 'bun:test';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { UnavailableError } from '../../../src/core/errors.ts';
import { checkGpuRequest, checkSandbox } from '../../../src/sandbox/preconditions.ts';
import { ensureContainerRuntime, pathWith, removePathDirs } from '../../support/container.ts';

const path = (names: string[]): string => pathWith(names);
afterAll(removePathDirs);

async function refusal(p: Promise<unknown>): Promise<UnavailableError> {
  const err = await p.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(UnavailableError);
  return err as UnavailableError;
}

const docker = Bun.which('docker');
const runtime = await ensureContainerRuntime();

describe('sandbox preconditions', () => {
  test('local needs nothing', async () => {
    expect(await checkSandbox('local', { PATH: path([]) })).toEqual({ kind: 'local' });
  });

  test.skipIf(docker === null)('docker with its daemon unreachable fails loud, or falls back to local with the override', async () => {
    const dir = path([]);
    symlinkSync(docker!, join(dir, 'docker'));
    const env = { PATH: dir, DOCKER_HOST: `unix://${join(dir, 'none.sock')}` };
    const err = await refusal(checkSandbox('docker', env));
    expect(err.message).toStartWith('sandbox docker: the docker daemon is unreachable (');
    expect(err.message).not.toContain('\n');
    expect(err.hint).toBe('set SVC_PHASE1_ALLOW_FALLBACK=1 to run locally instead');
    const d = await checkSandbox('docker', { ...env, SVC_PHASE1_ALLOW_FALLBACK: '1' });
    expect(d.kind).toBe('local');
    expect(d.warning).toContain('running locally because SVC_PHASE1_ALLOW_FALLBACK=1');
    expect((await refusal(checkSandbox('docker', { ...env, SVC_PHASE1_ALLOW_FALLBACK: '0' }))).message).toContain('unreachable');
  });

  test('docker without any docker program fails loud', async () => {
    const err = await refusal(checkSandbox('docker', { PATH: path([]) }));
    expect(err.message).toBe('sandbox docker: the docker daemon is unreachable (docker is not installed)');
  });

  for (const kind of ['apptainer', 'singularity'] as const) {
    test(`${kind} missing fails loud, or falls back to local with the override; present passes`, async () => {
      const err = await refusal(checkSandbox(kind, { PATH: path(['docker']) }));
      expect(err.message).toBe(`sandbox ${kind}: ${kind} is not installed`);
      expect(err.hint).toContain('SVC_PHASE1_ALLOW_FALLBACK=1');
      expect((await checkSandbox(kind, { PATH: path([]), SVC_PHASE1_ALLOW_FALLBACK: '1' })).kind).toBe('local');
      expect(await checkSandbox(kind, { PATH: path([kind]) })).toEqual({ kind });
    });
  }

  test('slurm without sbatch fails loud, or falls back to local with the override', async () => {
    const err = await refusal(checkSandbox('slurm', { PATH: path(['sinfo']) }));
    expect(err.message).toBe('sandbox slurm: sbatch is not installed');
    expect(err.hint).toBe('set SVC_PHASE1_ALLOW_FALLBACK=1 to run locally instead');
    const d = await checkSandbox('slurm', { PATH: path([]), SVC_PHASE1_ALLOW_FALLBACK: '1' });
    expect(d).toEqual({ kind: 'local', warning: 'sandbox slurm: sbatch is not installed; running locally because SVC_PHASE1_ALLOW_FALLBACK=1' });
  });

  test('slurm with sbatch but no way to list partitions has no partition', async () => {
    const err = await refusal(checkSandbox('slurm', { PATH: path(['sbatch']) }));
    expect(err.message).toBe('sandbox slurm: no partition: sinfo is not installed');
    expect((await checkSandbox('slurm', { PATH: path(['sbatch']), SVC_PHASE1_ALLOW_FALLBACK: '1' })).kind).toBe('local');
  });

  test.skipIf(Bun.which('sbatch') === null)('slurm on this machine passes with the partitions it reports', async () => {
    expect(await checkSandbox('slurm', process.env)).toEqual({ kind: 'slurm' });
  });

  test.skipIf('reason' in runtime || runtime.runtime !== 'docker')('docker with a running daemon passes', async () => {
    expect(await checkSandbox('docker', process.env)).toEqual({ kind: 'docker' });
  });
});

describe('GPU request without generic resources', () => {
  test('no GPU requested: nothing is checked', async () => {
    expect(await checkGpuRequest(0, { PATH: path([]) })).toEqual({ gpus: 0 });
  });

  test('resources that cannot be read fail loud, or the request is dropped with the override', async () => {
    const err = await refusal(checkGpuRequest(2, { PATH: path([]) }));
    expect(err.message).toBe('2 GPU(s) requested but its generic resources cannot be read (sinfo is not installed)');
    expect(err.hint).toBe('set SVC_SLURM_ALLOW_NO_GRES=1 to submit without the GPU request');
    const d = await checkGpuRequest(2, { PATH: path([]), SVC_SLURM_ALLOW_NO_GRES: '1' });
    expect(d.gpus).toBe(0);
    expect(d.warning).toContain('submitting without GPUs because SVC_SLURM_ALLOW_NO_GRES=1');
    // the sandbox override does not drop a GPU request
    await refusal(checkGpuRequest(1, { PATH: path([]), SVC_PHASE1_ALLOW_FALLBACK: '1' }));
  });

  test("a partition's generic resources other than GPUs do not take a GPU request", async () => {
    const sinfo = (gres: string) => ({ PATH: pathWith(['sinfo'], `if [ "$2 $3" = '-p big' ]; then echo '${gres}'; fi`) });
    expect((await refusal(checkGpuRequest(1, sinfo('mps:100,license:2'), 'big'))).message).toBe('1 GPU(s) requested but partition big reports no GPU among its generic resources (sinfo -o %G)');
    expect(await checkGpuRequest(1, sinfo('mps:100,gpu:a100:4(S:0-1)'), 'big')).toEqual({ gpus: 1 });
    expect(await checkGpuRequest(1, sinfo('gpu:2'), 'big')).toEqual({ gpus: 1 });
    expect((await refusal(checkGpuRequest(1, sinfo('gpu:2'), 'small'))).message).toBe('1 GPU(s) requested but partition small reports no generic resources (sinfo -o %G)');
  });

  test.skipIf(Bun.which('sinfo') === null)('on this cluster a GPU request is kept only when sinfo reports generic resources', async () => {
    const r = Bun.spawnSync(['sinfo', '-h', '-o', '%G']);
    const hasGres = r.stdout.toString().split('\n').some((l) => l.split(',').some((g) => g.trim().startsWith('gpu')));
    if (hasGres) expect(await checkGpuRequest(1, process.env)).toEqual({ gpus: 1 });
    else expect((await refusal(checkGpuRequest(1, process.env))).message).toBe('1 GPU(s) requested but the cluster reports no generic resources (sinfo -o %G)');
  });
});
