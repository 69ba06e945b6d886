import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, NotFoundError } from '../../../../src/core/errors.ts';
import { jobCancel, jobStatus, slurmSubmit } from '../../../../src/skills/hpc/slurm-tools.ts';
import { lacks } from '../../../support/components.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';
import { callTool, type Env } from '../coding/tool-call.ts';
import { finished, refusal } from './job-wait.ts';


let base: string;
let work: string;
beforeEach(() => {
  base = tempDir();
  work = join(base, 'work');
});
afterEach(() => removeDir(base));

const env = (more: Env = {}): Env => ({ PATH: process.env.PATH, HOME: base, SVC_WORK_DIR: work, ...more });


describe.skipIf(lacks('slurm'))('slurm_submit and job_status on the real cluster', () => {
  test('a script with an account flag runs to COMPLETED with its stdout; the flag never reaches sbatch', async () => {
    const script = '#!/bin/bash\n#SBATCH --account=x\n#SBATCH -A y\necho "hello from $SLURM_JOB_PARTITION on $SLURM_JOB_NUM_NODES node"\n';
    const r = await callTool(slurmSubmit, { script, job_name: 'hello' }, env());
    expect(r.job_id).toMatch(/^\d+$/);
    expect(['PENDING', 'RUNNING', 'COMPLETED']).toContain(r.status);
    expect(r.partition).toBe('debug');
    const s = await finished(r.job_id, env());
    expect(s).toEqual({ job_id: r.job_id, status: 'COMPLETED', exit_code: 0, stdout: 'hello from debug on 1 node\n' });
    const sent = readFileSync(join(work, '.svc-jobs', `${r.job_id}.sbatch`), 'utf8');
    expect(sent).not.toMatch(/--account|-A y/);
    expect(sent).toContain('#SBATCH --nodes=1');
    expect(sent).toContain('#SBATCH --time=60');
  });

  test('a failing script is FAILED with its exit code', async () => {
    const r = await callTool(slurmSubmit, { script: 'echo before\nexit 3\n', job_name: 'fails', walltime: '00:05:00' }, env());
    const s = await finished(r.job_id, env());
    expect(s).toMatchObject({ status: 'FAILED', exit_code: 3, stdout: 'before\n' });
  });

  test('job_cancel stops a running job: FAILED, reason CANCELLED', async () => {
    const r = await callTool(slurmSubmit, { script: 'sleep 300\n', job_name: 'long' }, env());
    expect(await callTool(jobCancel, { job_id: r.job_id }, env())).toEqual({ job_id: r.job_id, cancelled: true });
    const s = await finished(r.job_id, env());
    expect(s).toMatchObject({ status: 'FAILED', reason: 'CANCELLED' });
  });

  test('a job is found from another work_dir than the default one', async () => {
    const other = join(base, 'other');
    const r = await callTool(slurmSubmit, { script: 'pwd\n', work_dir: other }, env());
    expect((await finished(r.job_id, env())).stdout).toBe(`${other}\n`);
  });

  test('the experiment file partition line is used and checked against sinfo', async () => {
    const ck = join(base, 'ck');
    mkdirSync(ck);
    writeFileSync(join(ck, 'experiment.md'), '# E\n\nPartition: gpu-huge\n');
    const err = await refusal(callTool(slurmSubmit, { script: 'true\n' }, env({ SVC_CHECKPOINT_DIR: ck })));
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe("partition 'gpu-huge' (experiment file partition line) is not one the scheduler reports: debug (default)");
  });
});

describe('refusals before any job exists', () => {
  test.skipIf(lacks('slurm'))('an unknown partition lists the real ones and submits nothing', async () => {
    const err = await refusal(callTool(slurmSubmit, { script: 'true\n', partition: 'nope' }, env()));
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe("partition 'nope' (argument partition) is not one the scheduler reports: debug (default)");
    expect(existsSync(join(work, '.svc-jobs'))).toBe(false);
  });

  test('a SLURM_DEFAULT_PARTITION that would add a shell line or an option is refused and submits nothing', async () => {
    for (const bad of ['debug\nid > /tmp/svc-injected', 'debug --wrap=id']) {
      const err = await refusal(callTool(slurmSubmit, { script: 'true\n', job_name: 'x\n#SBATCH --output=/tmp/o' }, env({ SLURM_DEFAULT_PARTITION: bad })));
      expect(err).toBeInstanceOf(InputError);
      expect(err.message).toStartWith(`partition '${bad.replace('\n', '\\n')}' is not a partition name`);
    }
    expect(existsSync(join(work, '.svc-jobs')) ? readdirSync(join(work, '.svc-jobs')) : []).toEqual([]);
  });

  test.skipIf(lacks('slurm'))('a work_dir with a space, which the --chdir directive would split into another option, is refused', async () => {
    const spaced = join(base, 'w --comment=x');
    const err = await refusal(callTool(slurmSubmit, { script: 'true\n', work_dir: spaced }, env()));
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toStartWith(`work directory '${spaced}' contains whitespace or a control character`);
    expect(existsSync(join(spaced, '.svc-jobs'))).toBe(false);
  });

  test('an empty job_id is an error at once, without asking the scheduler', async () => {
    const noSlurm = env({ PATH: join(base, 'empty') });
    for (const tool of [jobStatus, jobCancel]) {
      const err = await refusal(callTool(tool, { job_id: '  ' }, noSlurm));
      expect(err).toBeInstanceOf(InputError);
      expect(err.message).toBe('job_id is empty');
    }
  });

  test('a job_id never submitted from here is not found', async () => {
    const err = await refusal(callTool(jobStatus, { job_id: '999999' }, env()));
    expect(err).toBeInstanceOf(NotFoundError);
  });

  test('an empty script, a bad walltime and zero nodes are refused', async () => {
    expect((await refusal(callTool(slurmSubmit, { script: ' \n' }, env()))).message).toBe('script is empty');
    expect((await refusal(callTool(slurmSubmit, { script: 'true', walltime: '1 hour' }, env()))).message).toBe("walltime '1 hour' is not HH:MM:SS or D-HH:MM:SS");
    expect((await refusal(callTool(slurmSubmit, { script: 'true', walltime: '00:00:00' }, env()))).message).toBe("walltime '00:00:00' is zero");
    await refusal(callTool(slurmSubmit, { script: 'true', nodes: 0 }, env()));
    expect(existsSync(join(work, '.svc-jobs')) ? readdirSync(join(work, '.svc-jobs')) : []).toEqual([]);
  });
});
