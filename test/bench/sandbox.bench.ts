// Sandboxes: with 100 Slurm jobs in flight on the real test cluster, the scheduler queries per
// poll interval (target: one); a node's command started as a step of its held allocation against
// a bare `srun` (target: at most 1.5x) and against `sbatch` per command; and 100 node allocations
// waiting together.
import { join } from 'node:path';
import type { JobStatus } from '../../src/sandbox/executor.ts';
import { NodeAllocations } from '../../src/sandbox/allocations.ts';
import { nodeCommand } from '../../src/sandbox/node-command.ts';
import { SlurmExecutor } from '../../src/sandbox/slurm.ts';
import type { CommandRunner } from '../../src/sandbox/slurm-runner.ts';
import { systemRunner } from '../../src/sandbox/slurm-runner.ts';
import { ensureSlurm } from '../support/slurm.ts';
import { removeDir, tempDir } from '../support/svc.ts';
import { median, report } from './measure.ts';

const JOBS = Number(process.env.BENCH_ROUNDS ?? 50);
const IN_FLIGHT = 100;
const dir = tempDir('svc-bench-sandbox-');
const STAMP = 'echo "$EPOCHREALTIME"';

const nowMs = () => performance.timeOrigin + performance.now();
const firstLineMs = (text: string) => Number(text.split('\n')[0]) * 1000;

/** Counts status() rounds (one per poll interval of the shared loop) and the queries inside them. */
class CountedSlurm extends SlurmExecutor {
  rounds = 0;
  override status(ids: string[]): Promise<Map<string, JobStatus>> {
    this.rounds++;
    return super.status(ids);
  }
}

await ensureSlurm();
const system = systemRunner();
let queries = 0;
let idsPerQuery = 0;
const counting: CommandRunner = (argv) => {
  if (argv[0] !== 'sbatch' && argv[0] !== 'scancel') {
    queries++;
    idsPerQuery = Math.max(idsPerQuery, argv.at(-1)?.split(',').length ?? 0);
  }
  return system(argv);
};
const slurm = new CountedSlurm({ stateDir: join(dir, 'state'), runner: counting, pollMs: 200 });
const refs = [];
for (let i = 0; i < IN_FLIGHT; i++) refs.push(await slurm.submit({ command: ['sleep', '300'], workDir: join(dir, 'slurm'), name: `bench-${i}`, wallTimeS: 600 }));
const stop = new AbortController();
const waits = refs.map((r) => slurm.wait(r.id, { signal: stop.signal }).catch(() => undefined));
await Bun.sleep(5000);
stop.abort();
await Promise.all(waits);
Bun.spawnSync(['scancel', ...refs.map((r) => r.id)]);
const perPoll = queries / slurm.rounds;
console.log(`\n${IN_FLIGHT} Slurm jobs in flight for 5 s: ${slurm.rounds} polls, ${queries} scheduler queries, up to ${idsPerQuery} job ids per query`);
console.log(`${'scheduler queries per poll interval'.padEnd(48)} ${perPoll.toFixed(3).padStart(9)}     ${(IN_FLIGHT / perPoll).toFixed(0).padStart(6)}x fewer than one per job  target = 1: ${perPoll === 1 ? 'met' : 'MISSED'}`);

/** Start to first line of a command run as `argv`, stamped by the command itself. */
async function started(argv: string[]): Promise<number> {
  const t0 = nowMs();
  const proc = Bun.spawn(argv, { stdout: 'pipe', stderr: 'ignore' });
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  return firstLineMs(out) - t0;
}

const STEPS = Math.min(JOBS, 30);
const holder = new NodeAllocations({ partition: null, cpus: 1, budgetS: 540, env: process.env, record: join(dir, 'allocations.json') });
const { jobId } = await holder.open('bench_node', new AbortController().signal);
const inStep = nodeCommand(['bash', '-c', STAMP], dir, { slurm: { jobId } });
await started(inStep);
await started(['srun', '--quiet', '-n1', 'bash', '-c', STAMP]);
const steps: number[] = [];
const bareSrun: number[] = [];
for (let i = 0; i < STEPS; i++) {
  bareSrun.push(await started(['srun', '--quiet', '-n1', 'bash', '-c', STAMP]));
  steps.push(await started(inStep));
}
await holder.close('bench_node');
const batch: number[] = [];
for (let i = 0; i < 5; i++) {
  const t0 = nowMs();
  const ref = await slurm.submit({ script: STAMP, workDir: join(dir, 'per-command'), name: `per-command-${i}`, wallTimeS: 60 });
  await slurm.wait(ref.id, { pollMs: 100 });
  batch.push(firstLineMs((await slurm.logs(ref.id)).stdout) - t0);
}
console.log(`\na node's command on Slurm, median time from start to its first line (${STEPS} steps and bare srun, 5 sbatch jobs)`);
report('bare srun -n1 (baseline)', median(bareSrun), median(bareSrun));
report("a step of the node's held allocation", median(steps), median(bareSrun), Number((median(bareSrun) * 1.5).toFixed(1)));
report('sbatch per command', median(batch), median(bareSrun));

// 100 node allocations asked at once: the ones that cannot start yet wait together
let allocQueries = 0;
let allocIds = 0;
const countingAllocs: CommandRunner = (argv) => {
  if (argv[0] === 'squeue') {
    allocQueries++;
    allocIds = Math.max(allocIds, argv.at(-1)?.split(',').length ?? 0);
  }
  return system(argv);
};
const many = new NodeAllocations({ partition: null, cpus: 1, budgetS: 540, env: process.env, record: join(dir, 'many.json'), runner: countingAllocs, pollMs: 200 });
const stopMany = new AbortController();
const opening = Array.from({ length: IN_FLIGHT }, (_, i) => many.open(`n${i}`, stopMany.signal).catch(() => undefined));
await Bun.sleep(5000);
stopMany.abort();
await Promise.all(opening);
await many.closeAll();
console.log(`${IN_FLIGHT} node allocations asked at once, for 5 s: ${allocQueries} squeue calls, up to ${allocIds} allocations per call`);
removeDir(dir);
