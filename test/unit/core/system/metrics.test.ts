import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { busyPercent, diskFigures, machineMemory, memoryFigures, parseCpuSample, resourceMetrics } from '../../../../src/core/system/metrics.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

async function run(cmd: string[]): Promise<string> {
  const p = Bun.spawn(cmd, { stdout: 'pipe' });
  const out = await new Response(p.stdout).text();
  expect(await p.exited).toBe(0);
  return out;
}

describe('against this machine', () => {
  test('memory: total is MemTotal, and free(1) agrees on total and available', async () => {
    const m = (await resourceMetrics(dir)).memory;
    const memTotalKb = Number(/^MemTotal:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1]);
    expect(m.total_bytes).toBe(memTotalKb * 1024);
    // free -b: "Mem: total used free shared buff/cache available"
    const row = (await run(['free', '-b'])).split('\n').find((l) => l.startsWith('Mem:'))?.trim().split(/\s+/) ?? [];
    expect(m.total_bytes).toBe(Number(row[1]));
    // available moves while other processes run: within 256 MiB
    expect(Math.abs(m.available_bytes - Number(row[6]))).toBeLessThan(256 * 1024 * 1024);
    expect(m.used_bytes).toBe(m.total_bytes - m.available_bytes);
    expect(m.percent).toBeCloseTo((m.used_bytes / m.total_bytes) * 100, 0);
  });

  test('disk: the figures of df -B1 for the same path', async () => {
    const d = (await resourceMetrics(dir)).disk;
    const [size, used, avail] = (await run(['df', '-B1', '--output=size,used,avail', dir])).trim().split('\n')[1]?.trim().split(/\s+/).map(Number) ?? [];
    expect(d.path).toBe(dir);
    expect(d.total_bytes).toBe(size ?? -1);
    // other people write to the same disk meanwhile: within 64 MiB
    expect(Math.abs(d.used_bytes - (used ?? 0))).toBeLessThan(64 * 1024 * 1024);
    expect(Math.abs(d.free_bytes - (avail ?? 0))).toBeLessThan(64 * 1024 * 1024);
  });

  test('a workspace that does not exist yet is measured on the disk it will be created on', () => {
    const missing = join(dir, 'not', 'yet');
    const d = diskFigures(missing);
    expect(d.path).toBe(missing);
    expect(d.total_bytes).toBe(diskFigures(dir).total_bytes);
  });

  test('cpu: cores as nproc counts them, load averages of /proc/loadavg, a busy core shows', async () => {
    const first = (await resourceMetrics(dir)).cpu;
    expect(first.cores).toBe(Number((await run(['getconf', '_NPROCESSORS_ONLN'])).trim()));
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);
    first.load_avg.forEach((x, i) => expect(Math.abs(x - (load[i] ?? 0))).toBeLessThan(0.5));
    expect(first.percent).toBeGreaterThanOrEqual(0);
    expect(first.percent).toBeLessThanOrEqual(100);
    // one process spinning on one core: the busy share since the last call is at least most of that core
    const spinner = Bun.spawn(['sh', '-c', 'while :; do :; done'], { stdout: 'ignore' });
    try {
      await resourceMetrics(dir);
      await Bun.sleep(700);
      const busy = (await resourceMetrics(dir)).cpu.percent;
      expect(busy).toBeGreaterThanOrEqual((100 / first.cores) * 0.6);
    } finally {
      spinner.kill('SIGKILL');
      await spinner.exited;
    }
  });
});

describe('without /proc (macOS)', () => {
  test('cpu and memory come from node:os, the disk from statfs as on Linux', async () => {
    const noProc = join(dir, 'proc');
    mkdirSync(noProc);
    const m = await resourceMetrics(dir, noProc);
    expect(m.memory.total_bytes).toBe(totalmem());
    expect(m.memory.available_bytes).toBeGreaterThan(0);
    expect(m.memory.used_bytes).toBe(m.memory.total_bytes - m.memory.available_bytes);
    expect(m.cpu.cores).toBe(cpus().length);
    expect(m.cpu.percent).toBeGreaterThanOrEqual(0);
    expect(m.cpu.percent).toBeLessThanOrEqual(100);
    expect(m.disk.total_bytes).toBe(diskFigures(dir).total_bytes);
  });

  test("the memory alone, as the local models' fit reads it", () => {
    const m = machineMemory(join(dir, 'absent'));
    expect(m.total_bytes).toBe(totalmem());
    expect(m.percent).toBeGreaterThan(0);
    expect(m.percent).toBeLessThan(100);
  });
});

describe('parsing', () => {
  const STAT = 'cpu  4705 356 584 3699176 23 23 0 0 0 0\ncpu0 1393 280 234 850971 5 13 0 0 0 0\nintr 114930548 113199788 3\n';

  test('/proc/stat: total and idle jiffies (idle + iowait)', () => {
    expect(parseCpuSample(STAT)).toEqual({ total: 4705 + 356 + 584 + 3699176 + 23 + 23, idle: 3699176 + 23 });
  });

  test('busy share between two samples', () => {
    expect(busyPercent({ total: 1000, idle: 800 }, { total: 1400, idle: 900 })).toBe(75);
    expect(busyPercent({ total: 1000, idle: 800 }, { total: 1000, idle: 800 })).toBe(0);
  });

  test('/proc/meminfo without MemAvailable (Linux before 3.14) is refused with the reason', () => {
    expect(() => memoryFigures('MemTotal:       16318480 kB\nMemFree:         1234 kB\n')).toThrow('/proc/meminfo has no MemAvailable');
    expect(memoryFigures('MemTotal:       1000 kB\nMemAvailable:    250 kB\n')).toEqual({ total_bytes: 1024000, used_bytes: 768000, available_bytes: 256000, percent: 75 });
  });

  test('a /proc/stat without a cpu line is refused', () => {
    expect(() => parseCpuSample('intr 1 2 3\n')).toThrow('/proc/stat has no cpu line');
  });
});
