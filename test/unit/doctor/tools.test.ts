// pdftotext (real poppler and a PATH without it) and free disk in the workspace.
import { afterAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { checkDisk, MIN_FREE_GIB } from '../../../src/doctor/disk.ts';
import { checkPdftotext } from '../../../src/doctor/pdftotext.ts';
import { lacks, smallDisk } from '../../support/components.ts';
import { pathWith, removePathDirs } from '../../support/container.ts';
import { NO_PIPELINE, project, removeBoxes } from './helpers.ts';

const disks: (() => void)[] = [];
afterAll(() => {
  for (const remove of disks) remove();
  removeBoxes();
  removePathDirs();
});

describe('checkPdftotext', () => {
  test('absent: a failure while the paper stages are on, a warning when they are off', async () => {
    const on = project({ PATH: pathWith([]) });
    expect(await checkPdftotext(on.cfg)).toEqual([
      { area: 'pdf', item: 'pdftotext', status: 'fail', detail: 'pdftotext is not on PATH', fix: 'install it: apt-get install poppler-utils', needed: true },
    ]);
    const off = project({ PATH: pathWith([]) }, NO_PIPELINE);
    expect((await checkPdftotext(off.cfg))[0]).toMatchObject({ status: 'warn', needed: false });
  });

  test.skipIf(lacks('pdftools'))('the real pdftotext reports its version', async () => {
    const [row] = await checkPdftotext(project().cfg);
    expect(row).toMatchObject({ status: 'ok', needed: true });
    expect(row?.detail).toMatch(/^pdftotext version [\d.]+ \(.*pdftotext\)$/);
  });
});

describe('checkDisk', () => {
  test('a roomy disk is ok and names the threshold', async () => {
    const { dir, cfg } = project();
    const [row] = await checkDisk(cfg);
    expect(row).toMatchObject({ area: 'disk', item: 'workspace', needed: true });
    expect(row?.detail).toContain(`at ${join(dir, 'workspace')}`);
    expect(row?.detail).toContain(`${MIN_FREE_GIB} GiB`);
  });

  test.skipIf(lacks('tmpfs'))('a workspace on a small disk is a warning below the threshold', async () => {
    const { dir } = project();
    const disk = smallDisk(dir, 1024);
    disks.push(disk.remove);
    const { cfg } = project({ SVC_CHECKPOINT_DIR: join(disk.dir, 'checkpoints', 'run') });
    const [row] = await checkDisk(cfg);
    expect(row).toMatchObject({ status: 'warn', fix: 'free space, or set SVC_CHECKPOINT_DIR to a larger disk' });
    // 1 MiB shows as 0.0 GiB
    expect(row?.detail).toBe(`0.0 GiB free at ${disk.dir}, below the ${MIN_FREE_GIB} GiB warning threshold`);
  });
});
