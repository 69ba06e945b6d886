import { afterAll, describe, expect, test } from 'bun:test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../../src/core/atomic.ts';
import { NotFoundError, SvcError } from '../../../src/core/errors.ts';
import type { JobStatus } from '../../../src/sandbox/executor.ts';
import { exitFile, jobsDir } from '../../../src/sandbox/job-state.ts';
import { hms, pbsExecutor } from '../../../src/sandbox/pbs.ts';
import { recordedRunner, submitMany } from '../../fixtures/sandbox/recorded-runner.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const root = tempDir('svc-pbs-');
afterAll(() => removeDir(root));

describe('PBS executor against recorded PBS Pro 2022 output', () => {
  test('submit hands qsub the exact script: our directives, the user\'s kept, account lines dropped', async () => {
    const { run, calls } = recordedRunner('pbspro-2022-session.txt');
    const workDir = join(root, 'submit');
    const exec = pbsExecutor({ stateDir: join(root, 'state-submit'), runner: run, logDir: join(root, 'logs') });
    const ref = await exec.submit({ script: '#!/bin/sh\n#PBS -A proj1\n#PBS -l place=scatter\npython train.py', workDir, name: 'train run', wallTimeS: 5400, cpus: 4, memGb: 8, partition: 'gpuq', gpus: 1, env: { SEED: '7' } });
    expect(ref).toEqual({ id: '4821.pbs01', kind: 'pbs', workDir });
    expect(calls.map((c) => c.argv[0])).toEqual(['qsub']);
    expect(calls[0]?.script).toBe(
      [
        '#!/bin/bash',
        '#PBS -l place=scatter',
        '#PBS -N train_run',
        '#PBS -l walltime=01:30:00',
        '#PBS -l select=1:ncpus=4:mem=8gb:ngpus=1',
        '#PBS -q gpuq',
        `#PBS -o ${root}/logs/`,
        `#PBS -e ${root}/logs/`,
        `cd ${workDir} || exit 1`,
        'export SEED=7',
        `uname -n > ${jobsDir(workDir)}/"$PBS_JOBID".exit.host 2>/dev/null`,
        '(',
        'python train.py',
        ')',
        `printf '%s\\n' "$?" > ${jobsDir(workDir)}/"$PBS_JOBID".exit.tmp && mv -f ${jobsDir(workDir)}/"$PBS_JOBID".exit.tmp ${jobsDir(workDir)}/"$PBS_JOBID".exit`,
        '',
      ].join('\n'),
    );
    expect(readdirSync(jobsDir(workDir)).sort()).toEqual(['4821.pbs01.json', '4821.pbs01.pbs']);
    expect(hms(1)).toBe('00:00:01');
    expect(hms(90061)).toBe('25:01:01');
  });

  test('one qstat answers for every job; each state maps, the exit file decides COMPLETED against FAILED', async () => {
    const { run, calls } = recordedRunner('pbspro-2022-session.txt');
    const workDir = join(root, 'states');
    const exec = pbsExecutor({ stateDir: join(root, 'state-states'), runner: run });
    const ids = await submitMany(exec, workDir, 11);
    writeFileAtomic(exitFile(workDir, '4826.pbs01'), '0\n');
    writeFileAtomic(exitFile(workDir, '4827.pbs01'), '2\n');
    await exec.cancel('4830.pbs01');
    const got = await exec.status(ids);
    expect(calls.filter((c) => c.argv[0] === 'qstat')).toHaveLength(1);
    const want: [string, JobStatus][] = [
      ['4821.pbs01', { state: 'PENDING', exitCode: null }],
      ['4822.pbs01', { state: 'PENDING', exitCode: null }],
      ['4823.pbs01', { state: 'PENDING', exitCode: null }],
      ['4824.pbs01', { state: 'RUNNING', exitCode: null }],
      ['4825.pbs01', { state: 'RUNNING', exitCode: null }],
      ['4826.pbs01', { state: 'COMPLETED', exitCode: 0 }],
      ['4827.pbs01', { state: 'FAILED', exitCode: 2 }],
      ['4828.pbs01', { state: 'FAILED', reason: 'TIMEOUT', exitCode: null }],
      ['4829.pbs01', { state: 'FAILED', reason: 'OUT_OF_MEMORY', exitCode: null }],
      ['4830.pbs01', { state: 'FAILED', reason: 'CANCELLED', exitCode: null }],
      ['4831.pbs01', { state: 'ERROR', exitCode: null }],
    ];
    expect([...got]).toEqual(want);
  });

  test('a refused qdel is an error and leaves the job not marked cancelled', async () => {
    const { run } = recordedRunner('pbspro-2022-session.txt');
    const workDir = join(root, 'qdel');
    const exec = pbsExecutor({ stateDir: join(root, 'state-qdel'), runner: run });
    await submitMany(exec, workDir, 1);
    const err = await exec.cancel('4821.pbs01').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SvcError);
    expect((err as Error).message).toBe('qdel 4821.pbs01 failed: qdel: Unauthorized Request  4821.pbs01');
    expect(readdirSync(jobsDir(workDir)).filter((f) => f.endsWith('.cancelled'))).toEqual([]);
    await expect(exec.status(['4999.pbs01'])).rejects.toBeInstanceOf(NotFoundError);
  });

  test('waiting on many jobs costs one qstat per poll in total', async () => {
    const { run, calls } = recordedRunner('pbspro-2022-wait.txt');
    const workDir = join(root, 'wait');
    const exec = pbsExecutor({ stateDir: join(root, 'state-wait'), runner: run, pollMs: 1 });
    const ids = await submitMany(exec, workDir, 3);
    writeFileAtomic(exitFile(workDir, '5001.pbs01'), '0\n');
    writeFileAtomic(exitFile(workDir, '5002.pbs01'), '1\n');
    const done = await Promise.all(ids.map((id) => exec.wait(id)));
    expect(done).toEqual([
      { state: 'COMPLETED', exitCode: 0 },
      { state: 'FAILED', exitCode: 1 },
      { state: 'FAILED', reason: 'TIMEOUT', exitCode: null },
    ]);
    expect(calls.filter((c) => c.argv[0] === 'qstat')).toHaveLength(2);
  });
});

describe('PBS executor against recorded Torque 6 output', () => {
  test('the qstat -f text form is read: running, completed, and killed at walltime (271)', async () => {
    const { run, calls } = recordedRunner('torque-6-session.txt');
    const workDir = join(root, 'torque');
    const exec = pbsExecutor({ stateDir: join(root, 'state-torque'), runner: run, qstatFormat: 'text' });
    const ids = await submitMany(exec, workDir, 3);
    writeFileAtomic(exitFile(workDir, '6002.torque01'), '0\n');
    expect([...(await exec.status(ids)).values()]).toEqual([
      { state: 'RUNNING', exitCode: null },
      { state: 'COMPLETED', exitCode: 0 },
      { state: 'FAILED', reason: 'TIMEOUT', exitCode: null },
    ]);
    expect(calls.at(-1)?.argv).toEqual(['qstat', '-f', ...ids]);
  });
});
