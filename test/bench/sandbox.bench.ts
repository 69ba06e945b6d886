// Sandboxes: local submit-to-start (submit() to the job's first line, stamped by the job itself
// with bash's $EPOCHREALTIME) against a bare Bun.spawn of the same command; and, with 100 Slurm
// jobs in flight on the real test cluster, the scheduler queries per poll interval (target: one).
import { join } from 'node:path';
import type { JobStatus } from '../../src/sandbox/executor.ts';
import { LocalExecutor } from '../../src/sandbox/local.ts';
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

async function bareSpawn(): Promise<number> {
  const t0 = nowMs();
  const proc = Bun.spawn(['bash', '-c', STAMP], { stdout: 'pipe' });
  const out = await new Response(proc.stdout).text();
  return firstLineMs(out) - t0;
}

async function localSubmit(exec: LocalExecutor, i: number): Promise<number> {
  const t0 = nowMs();
  const ref = await exec.submit({ script: STAMP, workDir: join(dir, 'local'), name: `b${i}`, wallTimeS: 30 });
  await exec.wait(ref.id, { pollMs: 5 });
  return firstLineMs((await exec.logs(ref.id)).stdout) - t0;
}

const local = new LocalExecutor(join(dir, 'state'));
await localSubmit(local, -1);
await bareSpawn();
const bare: number[] = [];
const submitted: number[] = [];
for (let i = 0; i < JOBS; i++) {
  bare.push(await bareSpawn());
  submitted.push(await localSubmit(local, i));
}
console.log(`${JOBS} local jobs, median time from start to the job's first line`);
report('bare Bun.spawn (baseline)', median(bare), median(bare));
report('LocalExecutor.submit', median(submitted), median(bare));
report('LocalExecutor overhead over the bare spawn', median(submitted) - median(bare), median(bare), 20);

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
removeDir(dir);
