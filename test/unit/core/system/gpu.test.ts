import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseNvidiaSmiCsv, queryGpus } from '../../../../src/core/system/gpu.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

// Output of `nvidia-smi --query-gpu=index,name,utilization.gpu,memory.used,memory.total,temperature.gpu --format=csv,noheader,nounits`
const TWO_A100 = '0, NVIDIA A100-SXM4-40GB, 0, 4, 40960, 32\n1, NVIDIA A100-SXM4-40GB, 87, 30215, 40960, 61\n';
const OLD_CARD = '0, GeForce GTX 680, [Not Supported], 311, 2047, 41\n';
const NO_DRIVER = "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.\n";

describe('parseNvidiaSmiCsv', () => {
  test('one GPU per line, figures as numbers', () => {
    expect(parseNvidiaSmiCsv(TWO_A100)).toEqual([
      { index: 0, name: 'NVIDIA A100-SXM4-40GB', utilization_pct: 0, memory_used_mb: 4, memory_total_mb: 40960, temperature_c: 32 },
      { index: 1, name: 'NVIDIA A100-SXM4-40GB', utilization_pct: 87, memory_used_mb: 30215, memory_total_mb: 40960, temperature_c: 61 },
    ]);
  });

  test('figures the driver does not report are null', () => {
    expect(parseNvidiaSmiCsv(OLD_CARD)).toEqual([{ index: 0, name: 'GeForce GTX 680', utilization_pct: null, memory_used_mb: 311, memory_total_mb: 2047, temperature_c: 41 }]);
    expect(parseNvidiaSmiCsv('0, Tesla K80, [N/A], [N/A], 11441, [N/A]\r\n')?.[0]).toMatchObject({ utilization_pct: null, memory_used_mb: null, memory_total_mb: 11441, temperature_c: null });
  });

  test('a name with a comma stays whole', () => {
    expect(parseNvidiaSmiCsv('3, Quadro RTX 8000, Rev. B, 12, 100, 48601, 50\n')?.[0]).toMatchObject({ index: 3, name: 'Quadro RTX 8000, Rev. B', utilization_pct: 12, temperature_c: 50 });
  });

  test('no GPUs is an empty list; anything else is not the queried CSV', () => {
    expect(parseNvidiaSmiCsv('')).toEqual([]);
    expect(parseNvidiaSmiCsv(NO_DRIVER)).toBeNull();
    expect(parseNvidiaSmiCsv('index, name, utilization.gpu [%], memory.used [MiB], memory.total [MiB], temperature.gpu\n')).toBeNull();
  });
});

describe('queryGpus', () => {
  let bin: string;
  beforeEach(() => {
    bin = tempDir();
  });
  afterEach(() => removeDir(bin));

  const fakeSmi = (script: string) => {
    writeFileSync(join(bin, 'nvidia-smi'), `#!/bin/sh\n${script}\n`);
    chmodSync(join(bin, 'nvidia-smi'), 0o755);
  };

  test('absent from PATH: not available, and says so', async () => {
    expect(await queryGpus({ path: bin })).toEqual({ available: false, gpus: [], reason: 'nvidia-smi not found on PATH' });
  });

  test('runs the query and parses its answer', async () => {
    // answers only the exact query, like the real tool would only print this CSV for it
    fakeSmi(`[ "$*" = "--query-gpu=index,name,utilization.gpu,memory.used,memory.total,temperature.gpu --format=csv,noheader,nounits" ] || { echo "unexpected arguments: $*" >&2; exit 2; }\nprintf '${TWO_A100.replaceAll('\n', '\\n')}'`);
    const r = await queryGpus({ path: bin });
    expect(r.available).toBe(true);
    expect(r.gpus.map((g) => [g.index, g.utilization_pct])).toEqual([
      [0, 0],
      [1, 87],
    ]);
  });

  test('a failing driver: its message is the reason', async () => {
    fakeSmi(`printf "${NO_DRIVER.replaceAll('\n', '\\n')}"; exit 9`);
    expect(await queryGpus({ path: bin })).toEqual({ available: false, gpus: [], reason: NO_DRIVER.trim() });
  });

  test('output that is not CSV is reported, not parsed', async () => {
    fakeSmi('echo "No devices were found"');
    expect(await queryGpus({ path: bin })).toMatchObject({ available: false, reason: 'nvidia-smi printed output that is not the queried CSV: No devices were found' });
  });

  test('a hung nvidia-smi is killed after the timeout', async () => {
    fakeSmi('exec /bin/sleep 30');
    expect(await queryGpus({ path: bin, timeoutMs: 300 })).toEqual({ available: false, gpus: [], reason: 'nvidia-smi did not answer within 0.3 s' });
  });
});
