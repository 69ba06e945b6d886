import { afterAll, describe, expect, test } from 'bun:test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../../src/core/atomic.ts';
import { SvcError } from '../../../src/core/errors.ts';
import type { JobStatus } from '../../../src/sandbox/executor.ts';
import { exitFile, jobsDir } from '../../../src/sandbox/job-state.ts';
import { lsfExecutor } from '../../../src/sandbox/lsf.ts';
import { recordedRunner, submitMany } from '../../fixtures/sandbox/recorded-runner.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const root = tempDir('svc-lsf-');
afterAll(() => removeDir(root));

describe('LSF executor against recorded LSF 10.1 output', () => {
  test('submit feeds bsub the exact script on stdin: our directives, the user\'s kept, project lines dropped', async () => {
    const { run, calls } = recordedRunner('lsf-10.1-session.txt');
    const workDir = join(root, 'submit');
    const logs = join(root, 'logs');
    const exec = lsfExecutor({ stateDir: join(root, 'state-submit'), runner: run, logDir: logs });
    const ref = await exec.submit({ script: '#BSUB -P proj1\n#BSUB -x\npython train.py', workDir, name: 'train run', wallTimeS: 5400, cpus: 4, memGb: 1.5, partition: 'gpu', gpus: 2 });
    expect(ref).toEqual({ id: '7101', kind: 'lsf', workDir });
    expect(calls[0]?.argv).toEqual(['bsub']);
    const exitWord = `${jobsDir(workDir)}/"$LSB_JOBID".exit`;
    expect(calls[0]?.stdin).toBe(
      [
        '#!/bin/bash',
        '#BSUB -x',
        '#BSUB -J train_run',
        '#BSUB -W 90',
        `#BSUB -cwd ${workDir}`,
        `#BSUB -o ${logs}/train_run-%J.out`,
        `#BSUB -e ${logs}/train_run-%J.err`,
        '#BSUB -n 4',
        '#BSUB -R "rusage[mem=1536MB]"',
        '#BSUB -q gpu',
        '#BSUB -gpu "num=2"',
        `uname -n > ${jobsDir(workDir)}/"$LSB_JOBID".exit.host 2>/dev/null`,
        '(',
        'python train.py',
        ')',
        `printf '%s\\n' "$?" > ${exitWord}.tmp && mv -f ${exitWord}.tmp ${exitWord}`,
        '',
      ].join('\n'),
    );
    expect(readdirSync(jobsDir(workDir)).sort()).toEqual(['7101.json', '7101.lsf']);
  });

  test('one bjobs answers for every job; each state maps, the exit file decides COMPLETED against FAILED', async () => {
    const { run, calls } = recordedRunner('lsf-10.1-session.txt');
    const workDir = join(root, 'states');
    const exec = lsfExecutor({ stateDir: join(root, 'state-states'), runner: run });
    const ids = await submitMany(exec, workDir, 9);
    writeFileAtomic(exitFile(workDir, '7103'), '0\n');
    writeFileAtomic(exitFile(workDir, '7104'), '3\n');
    await exec.cancel('7108');
    const got = await exec.status(ids);
    expect(calls.filter((c) => c.argv[0] === 'bjobs')).toHaveLength(1);
    const want: [string, JobStatus][] = [
      ['7101', { state: 'PENDING', exitCode: null }],
      ['7102', { state: 'RUNNING', exitCode: null }],
      ['7103', { state: 'COMPLETED', exitCode: 0 }],
      ['7104', { state: 'FAILED', exitCode: 3 }],
      ['7105', { state: 'FAILED', reason: 'TIMEOUT', exitCode: null }],
      ['7106', { state: 'FAILED', reason: 'OUT_OF_MEMORY', exitCode: null }],
      ['7107', { state: 'FAILED', reason: 'CANCELLED', exitCode: null }],
      ['7108', { state: 'FAILED', reason: 'CANCELLED', exitCode: null }],
      ['7109', { state: 'ERROR', exitCode: null }],
    ];
    expect([...got]).toEqual(want);
    expect(calls.find((c) => c.argv[0] === 'bkill')?.argv).toEqual(['bkill', '7108']);
  });

  test('waiting on many jobs costs one bjobs per poll in total', async () => {
    const { run, calls } = recordedRunner('lsf-10.1-wait.txt');
    const workDir = join(root, 'wait');
    const exec = lsfExecutor({ stateDir: join(root, 'state-wait'), runner: run, pollMs: 1 });
    const ids = await submitMany(exec, workDir, 3);
    writeFileAtomic(exitFile(workDir, '8001'), '0\n');
    writeFileAtomic(exitFile(workDir, '8002'), '1\n');
    const done = await Promise.all(ids.map((id) => exec.wait(id)));
    expect(done).toEqual([
      { state: 'COMPLETED', exitCode: 0 },
      { state: 'FAILED', exitCode: 1 },
      { state: 'FAILED', reason: 'TIMEOUT', exitCode: null },
    ]);
    expect(calls.filter((c) => c.argv[0] === 'bjobs')).toHaveLength(2);
  });
});

describe('LSF executor, bad answers', () => {
  test('a refused bsub is an error naming the reason, and leaves no script or record behind', async () => {
    const { run } = recordedRunner('lsf-10.1-refused.txt');
    const workDir = join(root, 'refused');
    const exec = lsfExecutor({ stateDir: join(root, 'state-refused'), runner: run });
    const err = await exec.submit({ command: ['true'], workDir, name: 'n', wallTimeS: 60, partition: 'nosuch' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SvcError);
    expect((err as Error).message).toBe('bsub refused job n: nosuch: No such queue. Job not submitted.');
    expect(readdirSync(jobsDir(workDir))).toEqual([]);
  });

  test('bjobs output that is not JSON is a clear error', async () => {
    const workDir = join(root, 'garbled');
    const { run } = recordedRunner('lsf-10.1-session.txt');
    const exec = lsfExecutor({ stateDir: join(root, 'state-garbled'), runner: async (argv, stdin) => (argv[0] === 'bjobs' ? { code: 255, stdout: 'LSF is down. Please wait ...\n', stderr: '' } : run(argv, stdin)) });
    const [id = ''] = await submitMany(exec, workDir, 1);
    await expect(exec.status([id])).rejects.toThrow(new SvcError('bjobs printed something other than JSON: LSF is down. Please wait ...'));
  });
});
