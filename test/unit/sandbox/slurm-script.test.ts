import { describe, expect, test } from 'bun:test';
import { lsfScript } from '../../../src/sandbox/lsf.ts';
import { pbsScript } from '../../../src/sandbox/pbs.ts';
import { batchScript, logPaths, wallMinutes } from '../../../src/sandbox/slurm-script.ts';
import type { SchedulerState } from '../../../src/sandbox/slurm-state.ts';
import { mapSlurmState, parsePipeTable, parseScontrolState, slurmSeconds } from '../../../src/sandbox/slurm-state.ts';

const paths = { stateDir: '/w/.svc-jobs', logDir: '/logs' };

describe('batchScript', () => {
  test('header from the spec, the body wrapped to write its exit code under the job id', () => {
    const s = batchScript({ script: 'python train.py', workDir: '/w', name: 'train run', wallTimeS: 90, cpus: 4, memGb: 1.5, partition: 'gpu', gpus: 2, env: { SEED: '1 2' } }, paths);
    const lines = s.split('\n');
    expect(lines.slice(0, 11)).toEqual([
      '#!/bin/bash',
      '#SBATCH --job-name=train_run',
      '#SBATCH --time=2',
      '#SBATCH --chdir=/w',
      '#SBATCH --output=/logs/train_run-%j.out',
      '#SBATCH --error=/logs/train_run-%j.err',
      '#SBATCH --cpus-per-task=4',
      '#SBATCH --mem=1536M',
      '#SBATCH --partition=gpu',
      '#SBATCH --gres=gpu:2',
      "export SEED='1 2'",
    ]);
    expect(s).toContain('python train.py');
    expect(s).toContain('> /w/.svc-jobs/"$SLURM_JOB_ID".exit.tmp');
  });

  test('every spelling of an account directive is dropped; other leading directives are kept first', () => {
    const s = batchScript({ script: '#!/bin/sh\n#SBATCH --account=a\n#SBATCH -A b\n#SBATCH -Ac\n#SBATCH --account d\n  #SBATCH --qos=low\necho hi\n#SBATCH --account=late', workDir: '/w', name: 'n', wallTimeS: 1 }, paths);
    expect(s).not.toMatch(/account|-A/);
    expect(s.split('\n').slice(0, 3)).toEqual(['#!/bin/bash', '#SBATCH --qos=low', '#SBATCH --job-name=n']);
    expect(s).not.toContain('#!/bin/sh');
  });

  test('a directive after the first command stays in the body, where sbatch ignores it', () => {
    const s = batchScript({ script: 'echo hi\n#SBATCH --qos=low', workDir: '/w', name: 'n', wallTimeS: 1 }, paths);
    expect(s.indexOf('#SBATCH --qos=low')).toBeGreaterThan(s.indexOf('echo hi'));
  });

  test('a partition that is not one name, or a path with a space or line break, is refused: no directive or shell line is added', () => {
    const base = { script: 'true', workDir: '/w', name: 'j', wallTimeS: 60 };
    for (const partition of ['debug --wrap=id', 'debug\n#SBATCH --output=/etc/x', 'debug\nrm -rf ~', '']) {
      expect(() => batchScript({ ...base, partition }, paths)).toThrow(/is not a partition name/);
      expect(() => pbsScript({ ...base, partition }, paths)).toThrow(/is not a partition name/);
      expect(() => lsfScript({ ...base, partition }, paths)).toThrow(/is not a partition name/);
    }
    expect(() => batchScript({ ...base, workDir: '/w\nid' }, paths)).toThrow(/work directory .* contains whitespace or a control character/);
    expect(() => lsfScript({ ...base, workDir: '/w --comment=x' }, paths)).toThrow(/work directory .* contains whitespace or a control character/);
    expect(() => batchScript(base, { ...paths, logDir: '/l\n#SBATCH -A x' })).toThrow(/log directory .* contains whitespace or a control character/);
    expect(batchScript({ ...base, partition: 'gpu,debug' }, paths)).toContain('#SBATCH --partition=gpu,debug\n');
  });

  test('a command is quoted word by word', () => {
    expect(batchScript({ command: ['echo', "it's", 'a b'], workDir: '/w', name: 'n', wallTimeS: 1 }, paths)).toContain(`echo 'it'\\''s' 'a b'`);
  });

  test('wall time rounds up to whole minutes, at least one; log paths name the job id', () => {
    expect([wallMinutes(1), wallMinutes(60), wallMinutes(61), wallMinutes(3600)]).toEqual([1, 1, 2, 60]);
    expect(logPaths({ script: '', workDir: '/w', name: 'a/b', wallTimeS: 1 }, '/l', '42')).toEqual({ stdoutPath: '/l/a_b-42.out', stderrPath: '/l/a_b-42.err' });
  });
});

describe('Slurm states', () => {
  test('map onto ours with their reasons', () => {
    const cases: [string, SchedulerState][] = [
      ['PENDING', { state: 'PENDING' }],
      ['CONFIGURING', { state: 'PENDING' }],
      ['RUNNING', { state: 'RUNNING' }],
      ['COMPLETING', { state: 'RUNNING' }],
      ['COMPLETED', { state: 'COMPLETED' }],
      ['FAILED', { state: 'FAILED' }],
      ['TIMEOUT', { state: 'FAILED', reason: 'TIMEOUT' }],
      ['CANCELLED by 0', { state: 'FAILED', reason: 'CANCELLED' }],
      ['CANCELLED+', { state: 'FAILED', reason: 'CANCELLED' }],
      ['OUT_OF_MEMORY', { state: 'FAILED', reason: 'OUT_OF_MEMORY' }],
      ['NODE_FAIL', { state: 'FAILED', reason: 'NODE_FAIL' }],
      ['BOOT_FAIL', { state: 'ERROR' }],
      ['SOMETHING_NEW', { state: 'ERROR' }],
    ];
    for (const [raw, want] of cases) expect([raw, mapSlurmState(raw)]).toEqual([raw, want]);
  });

  test('squeue/sacct tables and scontrol text are parsed', () => {
    expect(parsePipeTable('1|COMPLETED\n 2|RUNNING \n\njunk\n')).toEqual(new Map([['1', 'COMPLETED'], ['2', 'RUNNING']]));
    expect(parseScontrolState('JobId=2 JobName=wrap\n   JobState=FAILED Reason=NonZeroExitCode')).toBe('FAILED');
    expect(parseScontrolState('slurm_load_jobs error: Invalid job id specified')).toBeNull();
  });

  test('Slurm durations in every spelling squeue and sinfo use', () => {
    const cases: [string, number | null][] = [
      ['0:03', 3],
      ['1:57', 117],
      ['2:00:00', 7200],
      ['1-00:00:00', 86_400],
      ['2-12:30:00', 217_800],
      ['4:00:00', 14_400],
      ['2-03', 2 * 86_400 + 3 * 3600],
      ['1-02:03', 86_400 + 2 * 3600 + 3 * 60],
      ['30', 1800],
      ['UNLIMITED', Number.POSITIVE_INFINITY],
      ['infinite', Number.POSITIVE_INFINITY],
      ['NOT_SET', null],
      ['INVALID', null],
      ['n/a', null],
      ['', null],
    ];
    for (const [text, want] of cases) expect([text, slurmSeconds(text)]).toEqual([text, want]);
  });
});
