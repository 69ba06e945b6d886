// The executor: local needs nothing; Slurm needs sbatch, the partition in sinfo, and GRES for GPUs.
// Against the real single-node cluster (partition debug) and a PATH without Slurm.
import { afterAll, describe, expect, test } from 'bun:test';
import { checkExecutor } from '../../../src/doctor/executor.ts';
import { lacks } from '../../support/components.ts';
import { pathWith, removePathDirs } from '../../support/container.ts';
import { project, removeBoxes } from './helpers.ts';

afterAll(() => {
  removeBoxes();
  removePathDirs();
});

const run = (env: Record<string, string>) => {
  const { cfg } = project(env);
  return checkExecutor(cfg, cfg.env);
};

describe('checkExecutor', () => {
  test('local runs here and needs nothing', async () => {
    expect(await run({ SVC_EXECUTOR: 'local' })).toEqual([{ area: 'executor', item: 'local', status: 'ok', detail: 'node commands run on this machine', needed: true }]);
  });

  test('slurm without sbatch on PATH fails with the fix', async () => {
    const rows = await run({ SVC_EXECUTOR: 'slurm', PATH: pathWith([]) });
    expect(rows).toEqual([
      { area: 'executor', item: 'sbatch', status: 'fail', detail: 'sbatch is not on PATH, and the executor is slurm', fix: 'run svc on a login node of the cluster, or set SVC_EXECUTOR=local', needed: true },
    ]);
  });

  test('pbs is checked by its submit command', async () => {
    const [row] = await run({ SVC_EXECUTOR: 'pbs', PATH: pathWith([]) });
    expect(row).toMatchObject({ item: 'qsub', status: 'fail' });
  });

  describe.skipIf(lacks('slurm'))('the real cluster', () => {
    test('the configured partition debug exists; no GPUs asked for skips GRES', async () => {
      const rows = await run({ SVC_EXECUTOR: 'slurm', SVC_SLURM_PARTITION: 'debug' });
      expect(rows.map((r) => [r.item, r.status])).toEqual([
        ['sbatch', 'ok'],
        ['partition', 'ok'],
        ['GRES', 'skip'],
      ]);
      expect(rows[1]?.detail).toBe('debug exists (sinfo)');
    });

    test("no partition configured takes the scheduler's default", async () => {
      const rows = await run({ SVC_EXECUTOR: 'slurm' });
      expect(rows[1]).toMatchObject({ status: 'ok', detail: "none configured: the scheduler's debug is used" });
    });

    test('a partition sinfo does not report fails, listing the ones it does', async () => {
      const rows = await run({ SVC_EXECUTOR: 'slurm', SVC_SLURM_PARTITION: 'nosuch' });
      expect(rows[1]).toMatchObject({ status: 'fail', needed: true, detail: 'partition nosuch is not in sinfo (it has: debug)' });
    });

    test('GPUs asked of a partition without a gpu generic resource fail; the override makes it a warning', async () => {
      const rows = await run({ SVC_EXECUTOR: 'slurm', SVC_SLURM_PARTITION: 'debug', SVC_SLURM_GPUS: '1' });
      expect(rows[2]).toMatchObject({ item: 'GRES', status: 'fail', needed: true });
      expect(rows[2]?.detail).toContain('partition debug reports no generic resources');
      const allowed = await run({ SVC_EXECUTOR: 'slurm', SVC_SLURM_PARTITION: 'debug', SVC_SLURM_GPUS: '1', SVC_SLURM_ALLOW_NO_GRES: '1' });
      expect(allowed[2]).toMatchObject({ item: 'GRES', status: 'warn' });
    });
  });
});
