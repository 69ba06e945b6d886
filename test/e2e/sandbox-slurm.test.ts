// Against the real single-node Slurm cluster of test/support/slurm/start.sh: real sbatch, squeue,
// scontrol and scancel. The only seam is the command runner, wrapped to count scheduler queries.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SvcError, UnavailableError } from '../../src/core/errors.ts';
import type { JobRef } from '../../src/sandbox/executor.ts';
import { jobsDir } from '../../src/sandbox/job-state.ts';
import { SlurmExecutor } from '../../src/sandbox/slurm.ts';
import type { CommandRunner } from '../../src/sandbox/slurm-runner.ts';
import { systemRunner } from '../../src/sandbox/slurm-runner.ts';
import { lacks } from '../support/components.ts';
import { removeDir, tempDir } from '../support/svc.ts';

const root = tempDir('svc-slurm-');
const stateDir = join(root, 'state');
const calls: string[][] = [];
const system = systemRunner();
const counting: CommandRunner = (argv) => {
  calls.push(argv);
  return system(argv);
};
const exec = new SlurmExecutor({ stateDir, runner: counting, pollMs: 300 });
let timeoutJob: JobRef;
let timeoutSubmittedAt = 0;

beforeAll(async () => {
  if (lacks('slurm')) return;
  // Slurm checks limits every 30 s and counts in minutes: start the TIMEOUT job first, await it last.
  timeoutJob = await exec.submit({ script: 'echo started; sleep 300', workDir: join(root, 'timeout'), name: 'svc-timeout', wallTimeS: 60 });
  timeoutSubmittedAt = performance.now();
}, 120_000);
afterAll(() => removeDir(root));

describe.skipIf(lacks('slurm'))('SlurmExecutor on a real cluster', () => {
  test('a script that exits 0 is COMPLETED, its output in the log files', async () => {
    const ref = await exec.submit({ script: 'echo "hello $GREETING"; echo warn >&2', workDir: join(root, 'ok'), name: 'svc-ok', wallTimeS: 60, cpus: 1, memGb: 0.1, partition: 'debug', env: { GREETING: "it's me" } });
    expect(ref.kind).toBe('slurm');
    expect(await exec.wait(ref.id)).toEqual({ state: 'COMPLETED', exitCode: 0 });
    expect(await exec.logs(ref.id)).toEqual({ stdout: "hello it's me\n", stderr: 'warn\n' });
  });

  test('exit 3 is FAILED with exit code 3, read again by a second executor on the same state dir', async () => {
    const ref = await exec.submit({ script: 'exit 3', workDir: join(root, 'fail'), name: 'svc-fail', wallTimeS: 60 });
    expect(await exec.wait(ref.id)).toEqual({ state: 'FAILED', exitCode: 3 });
    const other = new SlurmExecutor({ stateDir });
    expect((await other.status([ref.id])).get(ref.id)).toEqual({ state: 'FAILED', exitCode: 3 });
  });

  test('with a log dir (SLURM_LOG_DIR) the job output goes there and logs() reads it', async () => {
    const logDir = join(root, 'slurm-logs');
    const logged = new SlurmExecutor({ stateDir, logDir, pollMs: 300 });
    const ref = await logged.submit({ script: 'echo to-the-log-dir', workDir: join(root, 'logdir'), name: 'svc-log', wallTimeS: 60 });
    expect(await logged.wait(ref.id)).toEqual({ state: 'COMPLETED', exitCode: 0 });
    expect(readdirSync(logDir).sort()).toEqual([`svc-log-${ref.id}.err`, `svc-log-${ref.id}.out`]);
    expect((await logged.logs(ref.id)).stdout).toBe('to-the-log-dir\n');
  });

  test('scancel on a running job is FAILED with reason CANCELLED', async () => {
    const ref = await exec.submit({ command: ['sleep', '300'], workDir: join(root, 'cancel'), name: 'svc-cancel', wallTimeS: 600 });
    for (let i = 0; i < 100 && (await exec.status([ref.id])).get(ref.id)?.state !== 'RUNNING'; i++) await Bun.sleep(100);
    expect((await exec.status([ref.id])).get(ref.id)?.state).toBe('RUNNING');
    await exec.cancel(ref.id);
    expect(await exec.wait(ref.id)).toEqual({ state: 'FAILED', reason: 'CANCELLED', exitCode: null });
  });

  test('account directives are stripped from the script sbatch gets; other directives stay', async () => {
    const script = '#!/bin/bash\n#SBATCH --account=nosuch\n#SBATCH -A other\n#SBATCH --account other2\n#SBATCH --comment=kept\necho body';
    const ref = await exec.submit({ script, workDir: join(root, 'acct'), name: 'svc-acct', wallTimeS: 60 });
    expect(await exec.wait(ref.id)).toEqual({ state: 'COMPLETED', exitCode: 0 });
    const sent = readFileSync(join(jobsDir(ref.workDir), `${ref.id}.sbatch`), 'utf8');
    expect(sent).not.toMatch(/--account|#SBATCH -A/);
    expect(sent).toContain('#SBATCH --comment=kept');
    expect(sent.split('\n')[0]).toBe('#!/bin/bash');
    const job = Bun.spawnSync(['scontrol', 'show', 'job', ref.id]).stdout.toString();
    expect(job).toContain('Comment=kept');
    expect(job).not.toContain('Account=nosuch');
  });

  test('20 jobs waited on together cost one squeue call per poll, never one per job', async () => {
    const refs = await Promise.all(Array.from({ length: 20 }, (_, i) => exec.submit({ script: `sleep 1; exit ${i % 2}`, workDir: join(root, 'many'), name: `svc-many-${i}`, wallTimeS: 60 })));
    calls.length = 0;
    const done = await Promise.all(refs.map((r) => exec.wait(r.id)));
    expect(done.map((s) => s.exitCode)).toEqual(refs.map((_, i) => i % 2));
    const queries = calls.filter(([cmd]) => cmd !== 'sbatch');
    expect(queries.every(([cmd]) => cmd === 'squeue')).toBe(true);
    // Each poll is one squeue call naming every job still waited on: the lists only shrink.
    const lists = queries.map((q) => new Set(q.at(-1)?.split(',')));
    expect([...(lists[0] ?? [])].sort()).toEqual(refs.map((r) => r.id).sort());
    for (let i = 1; i < lists.length; i++) expect([...(lists[i] ?? [])].every((id) => lists[i - 1]?.has(id))).toBe(true);
  }, 120_000);

  test('a wait rides out a few failed polls, and gives up with the error after five in a row', async () => {
    let failures = 0;
    const flaky: CommandRunner = (argv) => (argv[0] === 'squeue' && failures-- > 0 ? Promise.reject(new Error('controller away')) : system(argv));
    const e = new SlurmExecutor({ stateDir, runner: flaky, pollMs: 50 });
    const ok = await e.submit({ script: 'true', workDir: join(root, 'flaky'), name: 'svc-flaky', wallTimeS: 60 });
    failures = 2;
    expect(await e.wait(ok.id)).toEqual({ state: 'COMPLETED', exitCode: 0 });
    failures = 5;
    await expect(e.wait(ok.id)).rejects.toThrow('controller away');
  });

  test('a partition the cluster does not have is refused by sbatch, leaving no record behind', async () => {
    const wd = join(root, 'badpart');
    await expect(exec.submit({ script: 'true', workDir: wd, name: 'svc-bad', wallTimeS: 60, partition: 'nosuch' })).rejects.toThrow(SvcError);
    expect(readdirSync(jobsDir(wd))).toEqual([]);
  });

  test('no sbatch on PATH is a one-line UnavailableError naming the fix, and nothing is left', async () => {
    const empty = join(root, 'empty-path');
    mkdirSync(empty, { recursive: true });
    const bare = new SlurmExecutor({ stateDir: join(root, 'state2'), runner: systemRunner({ PATH: empty }) });
    const wd = join(root, 'nosbatch');
    const err = await bare.submit({ script: 'true', workDir: wd, name: 'x', wallTimeS: 60 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnavailableError);
    expect((err as UnavailableError).hint).toContain('SVC_EXECUTOR=local');
    expect(readdirSync(jobsDir(wd))).toEqual([]);
    expect(existsSync(join(root, 'state2'))).toBe(false);
  });

  test('a job over its wall time is FAILED with reason TIMEOUT', async () => {
    expect(await exec.wait(timeoutJob.id)).toEqual({ state: 'FAILED', reason: 'TIMEOUT', exitCode: null });
    expect((await exec.logs(timeoutJob.id)).stdout).toBe('started\n');
    console.error(`TIMEOUT of a 1-minute job seen ${((performance.now() - timeoutSubmittedAt) / 1000).toFixed(1)} s after submit`);
  }, 180_000);
});
