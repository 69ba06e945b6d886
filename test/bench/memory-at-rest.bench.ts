// Resident memory of the binary: peak RSS of `svc --help` and `svc status` (1,000 nodes) against a
// bare `bun -e 1`; RSS of `svc viz` at rest on 1 and 1,000 checkpoints, before and after one
// GET /api/checkpoints, against a bare Bun.serve. All measured in the same run.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { median } from './measure.ts';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { removeDir, SVC, tempDir } from '../support/svc.ts';
import { startViz } from '../support/viz.ts';

const ROUNDS = Number(process.env.BENCH_MEMORY_ROUNDS ?? 5);
// A spawned child's ru_maxrss starts from the spawning process's size (the child begins as a copy
// of it), so a short run is measured under GNU time, which forks from a process of a few MB.
const TIME = '/usr/bin/time';
const SETTLE_MS = 1000;

const dir = tempDir('svc-bench-rss-');
const env = { PATH: '/usr/bin:/bin', HOME: dir, NO_COLOR: '1' };
const big = writeCheckpoint(join(dir, 'big', 'checkpoints'), { nodes: 1000, payloadBytes: 3000 });
writeCheckpoint(join(dir, 'one', 'checkpoints'), { nodes: 10 });
for (let i = 0; i < 1000; i++) writeCheckpoint(join(dir, 'many', 'checkpoints'), { nodes: 10, runId: `20261101${String(i).padStart(6, '0')}_run_${i}` });

const mb = (kb: number) => kb / 1024;

/** Peak RSS in MB of one run of `cmd` to completion. */
function peakMb(cmd: string[]): number {
  const out = join(dir, 'time.out');
  const r = Bun.spawnSync([TIME, '-f', '%M', '-o', out, ...cmd], { cwd: dir, env, stdout: 'ignore', stderr: 'ignore' });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(' ')} exited ${r.exitCode}`);
  const kb = Number(readFileSync(out, 'utf8').trim().split('\n').pop());
  rmSync(out);
  return mb(kb);
}

/** VmRSS and VmHWM of a running process, in MB. */
function residentMb(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => mb(Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? Number.NaN));
  return { rss: field('VmRSS'), hwm: field('VmHWM') };
}

/** RSS of a bare Bun.serve on a free port, after it settles. */
async function bareServeMb(): Promise<number> {
  const code = `const s = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('[]') }); console.error('listening ' + s.port);`;
  const proc = Bun.spawn([process.execPath, '-e', code], { cwd: dir, env, stdout: 'ignore', stderr: 'pipe' });
  const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
  await reader.read();
  await Bun.sleep(SETTLE_MS);
  const { rss } = residentMb(proc.pid);
  proc.kill();
  await proc.exited;
  return rss;
}

/** `svc viz` on a checkpoints directory: RSS after start, and RSS and peak after one listing. */
async function vizMb(root: string): Promise<{ rest: number; listed: number; listedPeak: number }> {
  const viz = await startViz([root], { cwd: dir });
  try {
    await Bun.sleep(SETTLE_MS);
    const rest = residentMb(viz.proc.pid).rss;
    const res = await viz.req('/api/checkpoints');
    if (res.status !== 200) throw new Error(`GET /api/checkpoints answered ${res.status}`);
    await res.arrayBuffer();
    await Bun.sleep(SETTLE_MS);
    const after = residentMb(viz.proc.pid);
    return { rest, listed: after.rss, listedPeak: after.hwm };
  } finally {
    await viz.stop();
  }
}

const line = (name: string, value: number, base: number, target?: number) => {
  const verdict = target === undefined ? '' : `  target < ${target} MB: ${value < target ? 'met' : 'MISSED'}`;
  console.log(`${name.padEnd(60)} ${value.toFixed(1).padStart(6)} MB  ${(value / base).toFixed(2).padStart(5)}x baseline${verdict}`);
};
const medianOf = async (f: () => number | Promise<number>) => {
  const xs: number[] = [];
  for (let i = 0; i < ROUNDS; i++) xs.push(await f());
  return median(xs);
};

console.log(`median of ${ROUNDS} runs`);
if (existsSync(TIME)) {
  const bare = await medianOf(() => peakMb([process.execPath, '-e', '1']));
  line('bun -e 1, peak (baseline)', bare, bare);
  line('svc --help, peak', await medianOf(() => peakMb([SVC, '--help'])), bare, 35);
  line('svc status (1,000 nodes), peak', await medianOf(() => peakMb([SVC, 'status', big])), bare, 45);
} else console.log(`peak RSS of short runs skipped: needs GNU time at ${TIME}`);

const serve = await medianOf(bareServeMb);
line('bare Bun.serve, at rest (baseline)', serve, serve);
for (const [label, root] of [
  ['1 checkpoint', join(dir, 'one', 'checkpoints')],
  ['1,000 checkpoints', join(dir, 'many', 'checkpoints')],
] as const) {
  const runs: Awaited<ReturnType<typeof vizMb>>[] = [];
  for (let i = 0; i < ROUNDS; i++) runs.push(await vizMb(root));
  line(`svc viz, ${label}, at rest`, median(runs.map((r) => r.rest)), serve, 70);
  line(`svc viz, ${label}, after GET /api/checkpoints`, median(runs.map((r) => r.listed)), serve, 70);
  line(`svc viz, ${label}, peak through GET /api/checkpoints`, median(runs.map((r) => r.listedPeak)), serve);
}
removeDir(dir);
