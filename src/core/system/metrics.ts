import { existsSync, statfsSync } from 'node:fs';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { UnavailableError } from '../errors.ts';
import { readTextOrNull } from '../paths.ts';

export type ResourceMetrics = {
  cpu: { percent: number; cores: number; load_avg: [number, number, number] };
  memory: { total_bytes: number; used_bytes: number; available_bytes: number; percent: number };
  disk: { path: string; total_bytes: number; free_bytes: number; used_bytes: number; percent: number };
};

/** Jiffies since boot from the first line of /proc/stat: all of them, and those spent idle or waiting for I/O. */
export type CpuSample = { total: number; idle: number };

/** The last sample of each source: /proc/stat counts jiffies, os.cpus() milliseconds. */
const previous = new Map<string, { sample: CpuSample; percent: number }>();

/**
 * CPU, memory and disk of this machine; the disk is the one holding `diskPath` (the workspace).
 * CPU and memory come from `proc` (Linux's /proc) where it has them, else (macOS) from node:os.
 */
export async function resourceMetrics(diskPath: string, proc = '/proc'): Promise<ResourceMetrics> {
  const [cpu, memory, disk] = [await cpuPercent(proc), machineMemory(proc), diskFigures(diskPath)];
  const load = loadavg().map((x) => round(x, 2));
  return { cpu: { percent: cpu, cores: cpus().length, load_avg: [load[0] ?? 0, load[1] ?? 0, load[2] ?? 0] }, memory, disk };
}

/**
 * Busy share of all CPUs since the previous call. The first call has nothing to compare with, so
 * it samples twice, 100 ms apart; a call within the same clock tick repeats the last figure.
 */
async function cpuPercent(proc: string): Promise<number> {
  const stat = join(proc, 'stat');
  const source = existsSync(stat) ? stat : 'os';
  const sample = (): CpuSample => (source === 'os' ? osCpuSample() : parseCpuSample(readTextOrNull(stat) ?? ''));
  const last = previous.get(source);
  let before = last?.sample;
  if (!before) {
    before = sample();
    await Bun.sleep(100);
  }
  const now = sample();
  const percent = now.total > before.total ? busyPercent(before, now) : (last?.percent ?? 0);
  previous.set(source, { sample: now, percent });
  return percent;
}

/** All CPUs' times from node:os (milliseconds), where there is no /proc/stat. */
function osCpuSample(): CpuSample {
  let total = 0;
  let idle = 0;
  for (const { times } of cpus()) {
    total += times.user + times.nice + times.sys + times.idle + times.irq;
    idle += times.idle;
  }
  return { total, idle };
}

/**
 * This machine's memory: from `proc`/meminfo where there is one, else from node:os, whose free
 * memory on macOS leaves out reclaimable cache, so it reads lower than what is available.
 */
export function machineMemory(proc = '/proc'): ResourceMetrics['memory'] {
  const meminfo = readTextOrNull(join(proc, 'meminfo'));
  if (meminfo !== null) return memoryFigures(meminfo);
  const total = totalmem();
  const available = freemem();
  return { total_bytes: total, used_bytes: total - available, available_bytes: available, percent: round(((total - available) / total) * 100, 1) };
}

export function busyPercent(before: CpuSample, after: CpuSample): number {
  const total = after.total - before.total;
  const idle = after.idle - before.idle;
  return total > 0 ? round(((total - idle) / total) * 100, 1) : 0;
}

/** `cpu  user nice system idle iowait irq softirq steal guest guest_nice`; guest time is already in user. */
export function parseCpuSample(procStat: string): CpuSample {
  const line = procStat.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) throw new UnavailableError('/proc/stat has no cpu line', 'resource metrics need a Linux /proc');
  const f = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return { total, idle: (f[3] ?? 0) + (f[4] ?? 0) };
}

/** Used memory is what is not available (MemAvailable counts reclaimable cache as available, as `free` does). */
export function memoryFigures(meminfo: string): ResourceMetrics['memory'] {
  const kib = (key: string): number => {
    const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(meminfo);
    if (!m?.[1]) throw new UnavailableError(`/proc/meminfo has no ${key}`, 'resource metrics need Linux 3.14 or later');
    return Number(m[1]) * 1024;
  };
  const total = kib('MemTotal');
  const available = kib('MemAvailable');
  const used = total - available;
  return { total_bytes: total, used_bytes: used, available_bytes: available, percent: round((used / total) * 100, 1) };
}

/**
 * Size and free space as df reports them: free is what an ordinary user may still write, used
 * excludes the reserved blocks, and the percentage is used / (used + free). A path that does not
 * exist yet is measured at its nearest existing ancestor, the disk it will be created on.
 */
export function diskFigures(path: string): ResourceMetrics['disk'] {
  let at = resolve(path);
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  const s = statfsSync(at);
  const total = s.blocks * s.bsize;
  const free = s.bavail * s.bsize;
  const used = (s.blocks - s.bfree) * s.bsize;
  return { path: resolve(path), total_bytes: total, free_bytes: free, used_bytes: used, percent: used + free > 0 ? round((used / (used + free)) * 100, 1) : 0 };
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
