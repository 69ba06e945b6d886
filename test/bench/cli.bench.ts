// Cold start of the binary: `svc --help` and `svc status` on a 1,000-node checkpoint, each against
// spawning /bin/true in the same run, so a noisy machine shifts the baseline too.
import { median } from './measure.ts';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { removeDir, SVC, tempDir } from '../support/svc.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const dir = tempDir('svc-bench-');
const ck = writeCheckpoint(join(dir, 'checkpoints'), { nodes: 1000, payloadBytes: 3000 });
const treeBytes = statSync(join(ck, 'tree.json')).size;

const cases: { name: string; cmd: string[]; targetMs?: number }[] = [
  { name: '/bin/true (baseline)', cmd: ['/bin/true'] },
  { name: 'svc --help', cmd: [SVC, '--help'], targetMs: 40 },
  { name: `svc status (1,000 nodes, ${(treeBytes / 1e6).toFixed(1)} MB tree.json)`, cmd: [SVC, 'status', ck], targetMs: 100 },
];

function once(cmd: string[]): number {
  const t0 = performance.now();
  const r = Bun.spawnSync(cmd, { cwd: dir, stdout: 'ignore', stderr: 'ignore', env: { PATH: '/usr/bin:/bin', HOME: dir } });
  const ms = performance.now() - t0;
  if (r.exitCode !== 0) throw new Error(`${cmd.join(' ')} exited ${r.exitCode}`);
  return ms;
}


for (const c of cases) once(c.cmd); // warm the page cache
const times: number[][] = cases.map(() => []);
// interleaved rounds: drift on the machine affects every case alike
for (let r = 0; r < ROUNDS; r++) cases.forEach((c, i) => times[i]?.push(once(c.cmd)));
const base = median(times[0] ?? []);

console.log(`${ROUNDS} rounds, median wall time per spawn`);
cases.forEach((c, i) => {
  const med = median(times[i] ?? []);
  const verdict = c.targetMs === undefined ? '' : med < c.targetMs ? `  target < ${c.targetMs} ms: met` : `  target < ${c.targetMs} ms: MISSED`;
  console.log(`${c.name.padEnd(48)} ${med.toFixed(1).padStart(7)} ms  ${(med / base).toFixed(1).padStart(5)}x baseline${verdict}`);
});
removeDir(dir);
