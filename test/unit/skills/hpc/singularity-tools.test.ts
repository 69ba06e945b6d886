import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, UnavailableError } from '../../../../src/core/errors.ts';
import hpcSkill from '../../../../src/skills/hpc/index.ts';
import {
  singularityBuild,
  singularityBuildFakeroot,
  singularityPull,
  singularityRun,
  singularityRunGpu,
} from '../../../../src/skills/hpc/singularity-tools.ts';
import { lacks } from '../../../support/components.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';
import { callTool, type Env } from '../coding/tool-call.ts';
import { finished, refusal } from './job-wait.ts';


const hasRuntime = Bun.which('apptainer') !== null || Bun.which('singularity') !== null;

let base: string;
let work: string;
/** the Slurm client's directory and the basics, without apptainer or singularity */
let path: string;
beforeEach(() => {
  base = tempDir();
  work = join(base, 'work');
  mkdirSync(work, { recursive: true });
  path = process.env.PATH ?? '';
});
afterEach(() => removeDir(base));

const env = (more: Env = {}): Env => ({ PATH: path, HOME: base, SVC_WORK_DIR: work, ...more });


/** What the job scripts of this work dir hold: nothing was submitted when there are none. */
const submitted = (): string[] => (existsSync(join(work, '.svc-jobs')) ? readdirSync(join(work, '.svc-jobs')).filter((f) => f.endsWith('.sbatch')) : []);

test('the skill carries every tool of the catalogue', () => {
  expect(hpcSkill.name).toBe('hpc-skill');
  expect(hpcSkill.usesModel).toBe(false);
  expect(hpcSkill.tools.map((t) => t.name)).toEqual([
    'slurm_submit', 'job_status', 'job_cancel', 'singularity_build', 'singularity_run', 'singularity_pull', 'singularity_build_fakeroot', 'singularity_run_gpu',
  ]);
});

describe.skipIf(hasRuntime)('without apptainer or singularity on this machine', () => {
  test('every image tool fails loud in one line naming SVC_PHASE1_ALLOW_FALLBACK, and submits nothing', async () => {
    writeFileSync(join(work, 'img.def'), 'Bootstrap: docker\nFrom: busybox\n');
    writeFileSync(join(work, 'img.sif'), '');
    const calls: [any, Record<string, unknown>][] = [
      [singularityBuild, { definition_file: 'img.def', output_path: 'out.sif' }],
      [singularityBuildFakeroot, { definition_content: 'Bootstrap: docker\nFrom: busybox\n', output_path: 'out.sif' }],
      [singularityPull, { source: 'docker://busybox', output_path: 'out.sif' }],
      [singularityRun, { image_path: 'img.sif', command: 'echo hi' }],
    ];
    for (const [tool, args] of calls) {
      const err = await refusal(callTool(tool, args, env()));
      expect(err).toBeInstanceOf(UnavailableError);
      expect(err.message).toBe(`${tool.name}: neither apptainer nor singularity is installed`);
      if (tool === singularityRun) expect((err as UnavailableError).hint).toContain('SVC_PHASE1_ALLOW_FALLBACK=1');
    }
    expect(submitted()).toEqual([]);
  });

  test.skipIf(lacks('slurm'))('with SVC_PHASE1_ALLOW_FALLBACK=1 singularity_run runs the command without a container, with a warning', async () => {
    const e = env({ SVC_PHASE1_ALLOW_FALLBACK: '1' });
    const r = await callTool(singularityRun, { image_path: 'missing.sif', command: 'echo "in $PWD"' }, e);
    expect(r.runtime).toBeNull();
    expect(r.warnings).toEqual(['singularity_run: neither apptainer nor singularity is installed; the command runs without a container because SVC_PHASE1_ALLOW_FALLBACK=1']);
    expect(await finished(r.job_id, e)).toMatchObject({ status: 'COMPLETED', exit_code: 0, stdout: `in ${work}\n` });
  });

  test('building or pulling has no fallback: the override is named as not enough', async () => {
    const err = await refusal(callTool(singularityPull, { source: 'docker://busybox', output_path: 'out.sif' }, env({ SVC_PHASE1_ALLOW_FALLBACK: '1' })));
    expect((err as UnavailableError).hint).toBe('install apptainer: SVC_PHASE1_ALLOW_FALLBACK=1 runs commands without a container but cannot make an image');
    expect(submitted()).toEqual([]);
  });
});

describe.skipIf(lacks('slurm'))('singularity_run_gpu checks generic resources first', () => {
  test('a cluster without GPUs is refused, naming SVC_SLURM_ALLOW_NO_GRES, before anything else', async () => {
    const err = await refusal(callTool(singularityRunGpu, { image_path: 'img.sif', command: 'nvidia-smi' }, env()));
    expect(err).toBeInstanceOf(UnavailableError);
    expect(err.message).toBe('1 GPU(s) requested but the cluster reports no generic resources (sinfo -o %G)');
    expect((err as UnavailableError).hint).toContain('SVC_SLURM_ALLOW_NO_GRES=1');
    expect(submitted()).toEqual([]);
  });

  test.skipIf(hasRuntime)('with both overrides the command runs bare, without GPUs, and both warnings are returned', async () => {
    const e = env({ SVC_SLURM_ALLOW_NO_GRES: '1', SVC_PHASE1_ALLOW_FALLBACK: '1' });
    const r = await callTool(singularityRunGpu, { image_path: 'img.sif', command: 'echo $SLURM_CPUS_PER_TASK', gres: 'gpu:2', cpus_per_task: 1 }, e);
    expect(r.warnings).toHaveLength(2);
    expect(r.warnings[0]).toStartWith('2 GPU(s) requested but the cluster reports no generic resources');
    const sent = readFileSync(join(work, '.svc-jobs', `${r.job_id}.sbatch`), 'utf8');
    expect(sent).not.toContain('--gres');
    expect(await finished(r.job_id, e)).toMatchObject({ status: 'COMPLETED', stdout: '1\n' });
  });
});

describe.skipIf(lacks('slurm'))('the job script a runtime gets', () => {
  /** a stand-in apptainer on PATH that prints the arguments the job gave it, one a line */
  function standIn(): void {
    const dir = join(base, 'bin');
    mkdirSync(dir);
    writeFileSync(join(dir, 'apptainer'), '#!/bin/sh\nprintf "%s\\n" "$@"\n');
    chmodSync(join(dir, 'apptainer'), 0o755);
    path = `${dir}:${process.env.PATH ?? ''}`;
  }

  test('singularity_run: apptainer exec with work_dir bound, in a Slurm job of the requested nodes', async () => {
    standIn();
    writeFileSync(join(work, 'img.sif'), '');
    const r = await callTool(singularityRun, { image_path: 'img.sif', command: 'python train.py' }, env());
    expect(r).toMatchObject({ runtime: 'apptainer', partition: 'debug' });
    expect(readFileSync(join(work, '.svc-jobs', `${r.job_id}.sbatch`), 'utf8')).toContain('#SBATCH --nodes=1');
    const s = await finished(r.job_id, env());
    expect(s.stdout).toBe(['exec', '--bind', `${work}:${work}`, '--pwd', work, join(work, 'img.sif'), 'bash', '-lc', 'python train.py', ''].join('\n'));
  });

  test('singularity_build_fakeroot saves the definition beside the image and builds with --fakeroot', async () => {
    standIn();
    const r = await callTool(singularityBuildFakeroot, { definition_content: 'Bootstrap: docker\nFrom: busybox\n', output_path: 'imgs/b.sif' }, env());
    expect(readFileSync(r.definition_path, 'utf8')).toBe('Bootstrap: docker\nFrom: busybox\n');
    const s = await finished(r.job_id, env());
    expect(s.stdout).toBe(['build', '--fakeroot', '--force', join(work, 'imgs/b.sif'), join(work, 'imgs/b.sif.def'), ''].join('\n'));
  });

  test('singularity_pull takes a bare name from Docker Hub', async () => {
    standIn();
    const r = await callTool(singularityPull, { source: 'busybox', output_path: 'bb.sif' }, env());
    expect((await finished(r.job_id, env())).stdout).toBe(['pull', '--force', join(work, 'bb.sif'), 'docker://busybox', ''].join('\n'));
  });

  test('bad paths and inputs are refused before any job', async () => {
    standIn();
    const e = env();
    const cases: [any, Record<string, unknown>, string][] = [
      [singularityRun, { image_path: '../x.sif', command: 'true' }, 'image_path'],
      [singularityRun, { image_path: 'none.sif', command: 'true' }, "image_path 'none.sif' is not a file in the work directory"],
      [singularityRun, { image_path: 'img.sif', command: ' ' }, 'command is empty'],
      [singularityBuild, { definition_file: 'none.def', output_path: 'o.sif' }, "definition_file 'none.def' is not a file in the work directory"],
      [singularityBuild, { definition_file: 'a.def', output_path: '/etc/o.sif' }, 'output_path'],
      [singularityBuildFakeroot, { definition_content: '', output_path: 'o.sif' }, 'definition_content is empty'],
      [singularityPull, { source: '', output_path: 'o.sif' }, 'source is empty'],
    ];
    writeFileSync(join(work, 'a.def'), 'Bootstrap: docker\n');
    for (const [tool, args, text] of cases) {
      const err = await refusal(callTool(tool, args, e));
      expect(err).toBeInstanceOf(InputError);
      expect(err.message).toContain(text);
    }
    expect(submitted()).toEqual([]);
  });
});
