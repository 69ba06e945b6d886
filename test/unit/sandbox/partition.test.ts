import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/core/config/config.ts';
import type { Env } from '../../../src/core/config/env-vars.ts';
import { InputError, UnavailableError } from '../../../src/core/errors.ts';
import { resolvePartition } from '../../../src/sandbox/partition.ts';
import { lacks } from '../../support/components.ts';

const box = mkdtempSync(join(tmpdir(), 'svc-partition-'));
afterAll(() => rmSync(box, { recursive: true, force: true }));

const slurmPath = process.env.PATH ?? '';
/** a PATH without the Slurm client */
const noSlurmPath = join(box, 'empty');

function resolve(env: Env, extra: { explicit?: string; experiment?: string | null } = {}) {
  const full = { HOME: box, ...env };
  return resolvePartition({ ...extra, env: full, cfg: loadConfig({ cwd: box, env: full }) });
}

describe.skipIf(lacks('slurm'))('resolvePartition against the real sinfo', () => {
  test('the scheduler default when nothing names one', async () => {
    expect(await resolve({ PATH: slurmPath })).toEqual({ name: 'debug', source: 'scheduler', from: 'sinfo' });
  });

  test('the argument beats the experiment line, which beats SVC_SLURM_PARTITION', async () => {
    const env = { PATH: slurmPath, SVC_SLURM_PARTITION: 'nope-env' };
    expect((await resolve(env, { explicit: 'debug', experiment: 'nope-exp' })).source).toBe('argument');
    expect((await resolve(env, { experiment: 'debug' })).source).toBe('experiment');
    expect(await resolve({ PATH: slurmPath, SVC_SLURM_PARTITION: 'debug' })).toEqual({ name: 'debug', source: 'setting', from: 'env SVC_SLURM_PARTITION' });
  });

  test('an unknown named partition is refused with the real list', async () => {
    for (const [env, extra, from] of [
      [{ PATH: slurmPath }, { explicit: 'gpu-huge' }, 'argument partition'],
      [{ PATH: slurmPath }, { experiment: 'gpu-huge' }, 'experiment file partition line'],
      [{ PATH: slurmPath, SVC_SLURM_PARTITION: 'gpu-huge' }, {}, 'env SVC_SLURM_PARTITION'],
    ] as const) {
      const err = await resolve(env, extra).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InputError);
      expect((err as Error).message).toBe(`partition 'gpu-huge' (${from}) is not one the scheduler reports: debug (default)`);
    }
  });

  test('SLURM_DEFAULT_PARTITION comes after the named ones and before the scheduler', async () => {
    expect(await resolve({ PATH: slurmPath, SLURM_DEFAULT_PARTITION: 'other' })).toEqual({ name: 'other', source: 'SLURM_DEFAULT_PARTITION', from: 'env SLURM_DEFAULT_PARTITION' });
    expect((await resolve({ PATH: slurmPath, SLURM_DEFAULT_PARTITION: 'other', SVC_SLURM_PARTITION: 'debug' })).source).toBe('setting');
  });
});

describe('resolvePartition without a Slurm client', () => {
  test('a named partition is taken as given: nothing to check it against', async () => {
    expect(await resolve({ PATH: noSlurmPath }, { explicit: 'anything' })).toEqual({ name: 'anything', source: 'argument', from: 'argument partition' });
  });

  test('no partition anywhere is the slurm precondition error naming the override', async () => {
    const err = await resolve({ PATH: noSlurmPath }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnavailableError);
    expect((err as UnavailableError).message).toBe('sandbox slurm: sbatch is not installed');
    expect((err as UnavailableError).hint).toContain('SVC_PHASE1_ALLOW_FALLBACK=1');
  });

  test('with SVC_PHASE1_ALLOW_FALLBACK=1 no partition is chosen and a warning says why', async () => {
    const r = await resolve({ PATH: noSlurmPath, SVC_PHASE1_ALLOW_FALLBACK: '1' });
    expect(r.name).toBeNull();
    expect(r.warning).toBe('sandbox slurm: sbatch is not installed; running locally because SVC_PHASE1_ALLOW_FALLBACK=1');
  });
});
