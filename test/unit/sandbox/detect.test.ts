import { afterAll, describe, expect, test } from 'bun:test';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { UnavailableError } from '../../../src/core/errors.ts';
import { detectSchedulers, gresList, parseSinfo, slurmPartitions, timelimitSeconds } from '../../../src/sandbox/detect.ts';
import { pathWith, removePathDirs } from '../../support/container.ts';

const path = (names: string[]): string => pathWith(names);
afterAll(removePathDirs);

describe('parseSinfo', () => {
  test('merges the rows of a partition, marks the default and collects generic resources', () => {
    const text = 'debug*|up|infinite|1|(null)\ngpu|up|2-00:00:00|2|gpu:a100:4\ngpu|up|2-00:00:00|3|gpu:v100:2,mps:100\n\n';
    expect(parseSinfo(text)).toEqual([
      { name: 'debug', default: true, available: 'up', timelimit: 'infinite', nodes: 1, gres: [] },
      { name: 'gpu', default: false, available: 'up', timelimit: '2-00:00:00', nodes: 5, gres: ['gpu:a100:4', 'gpu:v100:2', 'mps:100'] },
    ]);
    expect(parseSinfo('')).toEqual([]);
    expect(gresList('(null)')).toEqual([]);
  });
});

describe('timelimitSeconds', () => {
  test("sinfo's time limits in seconds; none for infinite or anything unknown", () => {
    expect(timelimitSeconds('1-00:00:00')).toBe(86_400);
    expect(timelimitSeconds('2-12:30:00')).toBe(217_800);
    expect(timelimitSeconds('4:00:00')).toBe(14_400);
    expect(timelimitSeconds('30:00')).toBe(1800);
    for (const none of ['infinite', 'UNLIMITED', 'n/a', '']) expect(timelimitSeconds(none)).toBeNull();
  });
});

describe('detectSchedulers', () => {
  test('finds schedulers and runtimes by their programs on PATH', async () => {
    const d = await detectSchedulers({ PATH: path(['qsub', 'apptainer', 'podman']) });
    expect(d).toEqual({
      local: true,
      slurm: { found: false },
      pbs: { found: true },
      lsf: { found: false },
      apptainer: { found: true, version: 'apptainer version 9' },
      singularity: { found: false },
      docker: { found: false, daemon: false },
      podman: { found: true, version: 'podman version 9' },
    });
  });

  const docker = Bun.which('docker');
  test.skipIf(docker === null)('a docker client without its daemon is found but not reachable', async () => {
    const dir = path(['bsub']);
    symlinkSync(docker!, join(dir, 'docker'));
    const d = await detectSchedulers({ PATH: dir, DOCKER_HOST: `unix://${join(dir, 'none.sock')}` });
    expect(d.docker.found).toBe(true);
    expect(d.docker.daemon).toBe(false);
    expect(d.docker.error).toContain('Cannot connect to the Docker daemon');
    expect(d.lsf.found).toBe(true);
  });

  test('slurmPartitions without sinfo is unavailable, in one line', async () => {
    const err = await slurmPartitions({ PATH: path([]) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnavailableError);
    expect((err as Error).message).toBe('sinfo is not installed: no Slurm client on this machine');
  });

  test.skipIf(Bun.which('sinfo') === null || Bun.which('sbatch') === null)('the Slurm cluster of this machine is detected with its partitions', async () => {
    const d = await detectSchedulers(process.env);
    expect(d.slurm.found).toBe(true);
    expect(d.slurm.partitions?.length).toBeGreaterThan(0);
    expect(d.slurm.partitions?.filter((p) => p.default).length).toBeLessThanOrEqual(1);
  });
});
