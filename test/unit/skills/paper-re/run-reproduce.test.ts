import { afterAll, afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SvcError } from '../../../../src/core/errors.ts';
import { runReproduceTool } from '../../../../src/skills/paper-re/run-reproduce.ts';
import { lacks } from '../../../support/components.ts';
import { ensureRuntime, pathWith, removePathDirs, TEST_IMAGE } from '../../../support/container.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';
import { callTool, type Env, isRunning, waitForFile } from '../coding/tool-call.ts';
import { refusal } from '../hpc/job-wait.ts';

let base: string;
let ck: string;
let repo: string;
beforeEach(() => {
  base = tempDir();
  ck = join(base, 'checkpoints', 'run1');
  repo = join(ck, 'repro_sandbox');
  mkdirSync(repo, { recursive: true });
});
afterEach(() => removeDir(base));
afterAll(() => removePathDirs());

const env = (more: Env = {}): Env => ({ PATH: process.env.PATH, HOME: base, SVC_CHECKPOINT_DIR: ck, ...more });
const script = (text: string, dir = repo) => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'reproduce.sh'), `#!/bin/bash\n${text}`);
};
const record = () => JSON.parse(readFileSync(join(ck, 'ors_phase1.json'), 'utf8'));

/** A PATH with bash and nothing else of this machine: no scheduler, no container runtime. */
function bareBashPath(): string {
  const dir = pathWith([]);
  symlinkSync(Bun.which('bash') as string, join(dir, 'bash'));
  return dir;
}

describe('run_reproduce on the local sandbox', () => {
  test('reproduce.sh runs in repo_dir; its output, exit status and wall time are recorded in ors_phase1.json', async () => {
    script('echo "comparisons: 30850"\necho oops >&2\nexit 3\n');
    const r = await callTool(runReproduceTool, { repo_dir: 'repro_sandbox', rubric_path: 'ors_rubric.json', sandbox_kind: 'local' }, env());
    expect(r).toMatchObject({ sandbox_kind: 'local', exit_code: 3, timed_out: false, log_path: join(repo, 'reproduce.log'), submission_dir: repo, repo_dir: repo, rubric_path: join(ck, 'ors_rubric.json') });
    expect(r.fallback).toBeUndefined();
    expect(r.command).toMatch(/bash reproduce\.sh$/);
    expect(r.wall_time_sec).toBeGreaterThan(0);
    expect(Date.parse(r.ended_at)).toBeGreaterThanOrEqual(Date.parse(r.started_at));
    expect(readFileSync(r.log_path, 'utf8')).toBe('comparisons: 30850\noops\n');
    expect(record()).toEqual(r);
  });

  test('a nested submission/ is the submission root; the stray top-level reproduce.sh is ignored', async () => {
    script('echo top > ran\n');
    script('echo nested; pwd\n', join(repo, 'submission'));
    const r = await callTool(runReproduceTool, { repo_dir: repo, sandbox_kind: 'local' }, env());
    expect(r).toMatchObject({ exit_code: 0, submission_dir: join(repo, 'submission'), log_path: join(repo, 'submission', 'reproduce.log') });
    expect(readFileSync(r.log_path, 'utf8')).toBe(`nested\n${join(repo, 'submission')}\n`);
    expect(existsSync(join(repo, 'ran'))).toBe(false);
  });

  test('apply_patch and applypatch are on PATH and apply a unified diff', async () => {
    writeFileSync(join(repo, 'gaps.txt'), 'ratio 2.25\n');
    const diff = '--- a/gaps.txt\n+++ b/gaps.txt\n@@ -1 +1 @@\n-ratio 2.25\n+ratio 2.2\n';
    writeFileSync(join(repo, 'fix.diff'), diff);
    script('command -v applypatch >/dev/null || exit 9\napply_patch fix.diff && cat gaps.txt\n');
    const r = await callTool(runReproduceTool, { repo_dir: 'repro_sandbox', sandbox_kind: 'local' }, env());
    expect(readFileSync(r.log_path, 'utf8')).toBe('ratio 2.2\n');
    expect(r.exit_code).toBe(0);
    expect(readFileSync(join(repo, 'gaps.txt'), 'utf8')).toBe('ratio 2.2\n');
  });

  test('past timeout_global_sec the whole process group is stopped and timed_out recorded', async () => {
    script('sleep 60 &\necho $! > child.pid\necho started\nsleep 60\necho finished\n');
    const r = await callTool(runReproduceTool, { repo_dir: 'repro_sandbox', sandbox_kind: 'local', timeout_global_sec: 1 }, env());
    expect(r).toMatchObject({ timed_out: true, exit_code: null });
    expect(r.wall_time_sec).toBeGreaterThanOrEqual(1);
    // stopped, not let finish
    expect(readFileSync(r.log_path, 'utf8')).toBe('started\n');
    expect(isRunning(Number(await waitForFile(join(repo, 'child.pid'))))).toBe(false);
    expect(record().timed_out).toBe(true);
  });

  test('the saved ors settings apply when the call leaves them out: phase1_sandbox_kind and phase1_max_runtime_sec', async () => {
    writeFileSync(join(base, 'settings.json'), JSON.stringify({ ors: { phase1_sandbox_kind: 'local', phase1_max_runtime_sec: 1 } }));
    script('echo started\nsleep 60\n');
    const r = await callTool(runReproduceTool, { repo_dir: 'repro_sandbox' }, env());
    expect(r).toMatchObject({ sandbox_kind: 'local', timed_out: true, exit_code: null });
    expect(r.passed_over).toBeUndefined();
    // the call's own values win over the saved ones
    script('echo quick\n');
    expect(await callTool(runReproduceTool, { repo_dir: 'repro_sandbox', timeout_global_sec: 30 }, env())).toMatchObject({ sandbox_kind: 'local', timed_out: false, exit_code: 0 });
  });

  test('an SVC_PHASE1_SANDBOX that is not a sandbox kind is refused, naming the choices', async () => {
    script('echo ran\n');
    const err = await refusal(callTool(runReproduceTool, { repo_dir: 'repro_sandbox' }, env({ SVC_PHASE1_SANDBOX: 'vm' })));
    expect(err.message).toContain('SVC_PHASE1_SANDBOX');
    expect(err.message).toContain('auto, slurm, docker, apptainer, singularity, local');
    expect(existsSync(join(ck, 'ors_phase1.json'))).toBe(false);
  });

  test('a cancelled call stops the reproduction and records nothing', async () => {
    script('sleep 60 &\necho $! > child.pid\nsleep 60\n');
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 300);
    const err = await refusal(callTool(runReproduceTool, { repo_dir: 'repro_sandbox', sandbox_kind: 'local' }, env(), stop.signal));
    expect(err.message).toBe('run_reproduce was stopped: the call was cancelled');
    expect(isRunning(Number(await waitForFile(join(repo, 'child.pid'))))).toBe(false);
    expect(existsSync(join(ck, 'ors_phase1.json'))).toBe(false);
  });

  test('a repo_dir without reproduce.sh, and one outside the checkpoint, are refused', async () => {
    expect((await refusal(callTool(runReproduceTool, { repo_dir: 'repro_sandbox', sandbox_kind: 'local' }, env()))).message).toBe(`repo_dir ${repo} has no reproduce.sh`);
    expect((await refusal(callTool(runReproduceTool, { repo_dir: base, sandbox_kind: 'local' }, env()))).message).toContain('is outside');
    expect(existsSync(join(ck, 'ors_phase1.json'))).toBe(false);
  });

  test('a submission that leads out of the checkpoint is refused; a reproduce.log link is replaced, not written through', async () => {
    const outside = join(base, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'reproduce.sh'), 'echo escaped\n');
    symlinkSync(outside, join(repo, 'submission'));
    expect((await refusal(callTool(runReproduceTool, { repo_dir: 'repro_sandbox', sandbox_kind: 'local' }, env()))).message).toContain('is a link: a submission is not followed out of its directory');
    removeDir(join(repo, 'submission'));
    writeFileSync(join(outside, 'precious.txt'), 'keep\n');
    symlinkSync(join(outside, 'precious.txt'), join(repo, 'reproduce.log'));
    script('echo fresh\n');
    const r = await callTool(runReproduceTool, { repo_dir: 'repro_sandbox', sandbox_kind: 'local' }, env());
    expect(readFileSync(r.log_path, 'utf8')).toBe('fresh\n');
    expect(readFileSync(join(outside, 'precious.txt'), 'utf8')).toBe('keep\n');
  });

  test('cpus as the workflow renders it ("{{resources.cpus}}" gives text) is accepted', async () => {
    script('exit 0\n');
    expect((await callTool(runReproduceTool, { repo_dir: 'repro_sandbox', sandbox_kind: 'local', cpus: '4' }, env())).exit_code).toBe(0);
  });
});

describe('the sandbox chosen, and the fail-loud preconditions', () => {
  test.skipIf(Bun.which('docker') === null)('docker with its daemon unreachable: an error naming the override; with it, the next kind that can run, said so', async () => {
    script('echo ran\n');
    const closed = { DOCKER_HOST: `unix://${join(base, 'closed.sock')}` };
    const err = (await refusal(callTool(runReproduceTool, { repo_dir: 'repro_sandbox', sandbox_kind: 'docker' }, env(closed)))) as SvcError;
    expect(err.message).toContain('sandbox docker: the docker daemon is unreachable');
    expect(err.hint).toContain('SVC_PHASE1_ALLOW_FALLBACK=1');
    const r = await callTool(runReproduceTool, { repo_dir: 'repro_sandbox', sandbox_kind: 'docker' }, env({ ...closed, SVC_PHASE1_ALLOW_FALLBACK: '1' }));
    expect(r).toMatchObject({ sandbox_kind: 'local', exit_code: 0, fallback: { from: 'docker', override: 'SVC_PHASE1_ALLOW_FALLBACK' } });
    expect(r.fallback.reason).toContain('the docker daemon is unreachable');
    expect(readFileSync(r.log_path, 'utf8')).toBe('ran\n');
  });

  for (const kind of ['apptainer', 'singularity'] as const) {
    test.skipIf(Bun.which(kind) !== null)(`${kind} missing: an error naming the override; with it, local`, async () => {
      script('echo ran\n');
      const err = (await refusal(callTool(runReproduceTool, { repo_dir: 'repro_sandbox', sandbox_kind: kind }, env()))) as SvcError;
      expect(err.message).toBe(`sandbox ${kind}: ${kind} is not installed`);
      expect(err.hint).toContain('SVC_PHASE1_ALLOW_FALLBACK=1');
      const r = await callTool(runReproduceTool, { repo_dir: 'repro_sandbox', sandbox_kind: kind }, env({ SVC_PHASE1_ALLOW_FALLBACK: '1' }));
      expect(r).toMatchObject({ sandbox_kind: 'local', exit_code: 0, fallback: { from: kind, reason: `${kind} is not installed` } });
    });
  }

  test('slurm without sbatch: an error naming the override; with it, the next kind that can run', async () => {
    script('echo ran\n');
    const PATH = bareBashPath();
    const err = (await refusal(callTool(runReproduceTool, { repo_dir: 'repro_sandbox', sandbox_kind: 'slurm' }, env({ PATH })))) as SvcError;
    expect(err.message).toBe('sandbox slurm: sbatch is not installed');
    expect(err.hint).toContain('SVC_PHASE1_ALLOW_FALLBACK=1');
    const r = await callTool(runReproduceTool, { repo_dir: 'repro_sandbox', sandbox_kind: 'slurm' }, env({ PATH, SVC_PHASE1_ALLOW_FALLBACK: '1' }));
    expect(r).toMatchObject({ sandbox_kind: 'local', exit_code: 0, fallback: { from: 'slurm', reason: 'sbatch is not installed' } });
  });

  test('slurm with no partition: an error naming the override; with it, the next kind that can run', async () => {
    script('echo ran\n');
    const PATH = `${pathWith(['sbatch', 'sinfo'], 'exit 0')}:${bareBashPath()}`;
    const err = (await refusal(callTool(runReproduceTool, { repo_dir: 'repro_sandbox', sandbox_kind: 'slurm' }, env({ PATH })))) as SvcError;
    expect(err.message).toBe('sandbox slurm: no partition: sinfo reports none');
    expect(err.hint).toContain('SVC_PHASE1_ALLOW_FALLBACK=1');
    const r = await callTool(runReproduceTool, { repo_dir: 'repro_sandbox', sandbox_kind: 'slurm' }, env({ PATH, SVC_PHASE1_ALLOW_FALLBACK: '1' }));
    expect(r).toMatchObject({ sandbox_kind: 'local', exit_code: 0, fallback: { from: 'slurm' } });
  });

  test('auto passes over docker on a cluster login node, and slurm while no partition is named', async () => {
    script('echo ran\n');
    const PATH = `${pathWith(['sbatch'], 'exit 1')}:${bareBashPath()}`;
    const r = await callTool(runReproduceTool, { repo_dir: 'repro_sandbox', sandbox_kind: 'auto' }, env({ PATH }));
    expect(r.sandbox_kind).toBe('local');
    expect(r.passed_over.slice(0, 2)).toEqual([
      'slurm: no partition is named (SVC_SLURM_PARTITION, the experiment file or the partition argument)',
      'docker: this is a cluster login node (a batch scheduler is installed)',
    ]);
  });

  test('apptainer: reproduce.sh runs through `apptainer exec` with the submission bound, in SVC_PHASE1_APPTAINER_IMAGE', async () => {
    script('echo inside\n');
    const args = join(base, 'apptainer.args');
    // a stand-in apptainer: it notes how it was called, then runs the command it was given
    const PATH = `${pathWith(['apptainer'], `printf '%s\\n' "$@" > ${args}\nfor last; do :; done\nexec bash -c "$last"`)}:${process.env.PATH}`;
    const r = await callTool(runReproduceTool, { repo_dir: 'repro_sandbox', sandbox_kind: 'apptainer' }, env({ PATH, SVC_PHASE1_APPTAINER_IMAGE: 'docker://busybox:1' }));
    expect(r).toMatchObject({ sandbox_kind: 'apptainer', exit_code: 0, image: 'docker://busybox:1' });
    expect(readFileSync(args, 'utf8')).toBe(['exec', '--bind', `${repo}:${repo}`, '--pwd', repo, 'docker://busybox:1', 'bash', '-lc', 'bash reproduce.sh', ''].join('\n'));
    expect(readFileSync(r.log_path, 'utf8')).toBe('inside\n');
    // the image aliases of the benchmark resolve to their :latest tags
    expect((await callTool(runReproduceTool, { repo_dir: 'repro_sandbox', sandbox_kind: 'apptainer', container_image: 'bench-env' }, env({ PATH }))).image).toBe('bench-env:latest');
  });

  test('auto takes a container only with a named image: a stock one lacks what the reproduction needs', async () => {
    script('echo ran\n');
    // docker that answers as a live daemon would, on a machine with no batch scheduler
    const PATH = `${pathWith(['docker'], 'echo 27.0.0')}:${bareBashPath()}`;
    const r = await callTool(runReproduceTool, { repo_dir: 'repro_sandbox' }, env({ PATH }));
    expect(r.sandbox_kind).toBe('local');
    expect(r.passed_over[1]).toBe('docker: no image is named (container_image or its setting)');
  });

  test('auto takes local where nothing else can run, and says what it passed over', async () => {
    script('echo ran\n');
    const r = await callTool(runReproduceTool, { repo_dir: 'repro_sandbox' }, env({ PATH: bareBashPath() }));
    expect(r).toMatchObject({ sandbox_kind: 'local', exit_code: 0 });
    expect(r.fallback).toBeUndefined();
    expect(r.passed_over).toEqual(['slurm: sbatch is not installed', 'docker: the docker daemon is unreachable (docker is not installed)', 'apptainer: apptainer is not installed', 'singularity: singularity is not installed']);
  });
});

describe('run_reproduce in a docker container', () => {
  test('reproduce.sh runs in the image with repo_dir mounted; a timeout kills the container', async () => {
    const rt = await ensureRuntime('docker');
    if ('reason' in rt) {
      console.error(`skipped: run_reproduce in docker (${rt.reason})`);
      return;
    }
    script('echo in container; ls /bin/busybox; echo out > made.txt; exit 4\n');
    const r = await callTool(runReproduceTool, { repo_dir: 'repro_sandbox', sandbox_kind: 'docker', container_image: TEST_IMAGE }, env());
    expect(r).toMatchObject({ sandbox_kind: 'docker', exit_code: 4, timed_out: false, image: TEST_IMAGE });
    expect(r.command).toContain(`docker run --rm --init --name svc-reproduce-`);
    expect(readFileSync(r.log_path, 'utf8')).toBe('in container\n/bin/busybox\n');
    expect(readFileSync(join(repo, 'made.txt'), 'utf8')).toBe('out\n');

    script('echo started; sleep 60; echo finished\n');
    const slow = await callTool(runReproduceTool, { repo_dir: 'repro_sandbox', sandbox_kind: 'docker', container_image: TEST_IMAGE, timeout_global_sec: 2 }, env());
    expect(slow).toMatchObject({ sandbox_kind: 'docker', timed_out: true });
    expect(readFileSync(slow.log_path, 'utf8')).not.toContain('finished');
    const name = /--name (svc-reproduce-\w+)/.exec(slow.command)?.[1] ?? '';
    const ps = Bun.spawnSync([rt.binary, 'ps', '-aq', '--filter', `name=${name}`], { stdout: 'pipe' });
    expect(ps.stdout.toString().trim()).toBe('');
  }, 60_000);
});

describe('run_reproduce keeps svc\'s credentials from reproduce.sh', () => {
  const SECRET = { OPENAI_API_KEY: 'sk-ors-secret-0001', SVC_KEEP: 'kept' };
  const PRINTS = 'echo "key=${OPENAI_API_KEY-unset} keep=${SVC_KEEP-unset}"\n';

  test('local', async () => {
    script(PRINTS);
    const r = await callTool(runReproduceTool, { repo_dir: 'repro_sandbox', sandbox_kind: 'local' }, env(SECRET));
    expect(readFileSync(r.log_path, 'utf8')).toBe('key=unset keep=kept\n');
  });

  test.skipIf(lacks('slurm'))('a real Slurm job', async () => {
    script(PRINTS);
    const r = await callTool(runReproduceTool, { repo_dir: 'repro_sandbox', sandbox_kind: 'slurm', partition: 'debug', walltime: '00:05:00' }, env(SECRET));
    expect(r).toMatchObject({ sandbox_kind: 'slurm', exit_code: 0 });
    expect(readFileSync(r.log_path, 'utf8')).toBe('key=unset keep=kept\n');
  }, 60_000);
});

describe.skipIf(lacks('slurm'))('run_reproduce as a real Slurm job', () => {
  test('the job runs reproduce.sh in the submission; its log, exit code and job id are recorded', async () => {
    script('echo "on $SLURM_JOB_PARTITION"; pwd; exit 5\n');
    const r = await callTool(runReproduceTool, { repo_dir: 'repro_sandbox', sandbox_kind: 'slurm', partition: 'debug', walltime: '00:05:00' }, env());
    expect(r).toMatchObject({ sandbox_kind: 'slurm', exit_code: 5, timed_out: false, partition: 'debug' });
    expect(r.job_id).toMatch(/^\d+$/);
    expect(readFileSync(r.log_path, 'utf8')).toBe(`on debug\n${repo}\n`);
    // the job's records are kept out of the submission the grader reads
    expect(existsSync(join(repo, '.svc-jobs'))).toBe(false);
  }, 60_000);

  test('auto picks slurm when a partition is named; a timeout cancels the job', async () => {
    script('echo started; sleep 120; echo finished\n');
    const r = await callTool(runReproduceTool, { repo_dir: 'repro_sandbox', timeout_global_sec: 2 }, env({ SVC_SLURM_PARTITION: 'debug' }));
    expect(r).toMatchObject({ sandbox_kind: 'slurm', timed_out: true, partition: 'debug' });
    // a job cancelled before it started leaves no log
    expect(existsSync(r.log_path) ? readFileSync(r.log_path, 'utf8') : '').not.toContain('finished');
    const q = Bun.spawnSync(['squeue', '-h', '-j', r.job_id, '-o', '%T'], { stdout: 'pipe', stderr: 'pipe' });
    expect(q.stdout.toString().trim()).toMatch(/^(CANCELLED|COMPLETING|)$/);
  }, 60_000);

  test('a GPU request on a cluster without generic resources fails loud; SVC_SLURM_ALLOW_NO_GRES=1 runs it without', async () => {
    script('echo ran\n');
    const args = { repo_dir: 'repro_sandbox', sandbox_kind: 'slurm', partition: 'debug', gpus_per_task: 1, walltime: '00:05:00' };
    const err = (await refusal(callTool(runReproduceTool, args, env()))) as SvcError;
    expect(err.message).toContain('1 GPU(s) requested but partition debug reports no generic resources');
    expect(err.hint).toContain('SVC_SLURM_ALLOW_NO_GRES=1');
    const r = await callTool(runReproduceTool, args, env({ SVC_SLURM_ALLOW_NO_GRES: '1' }));
    expect(r).toMatchObject({ sandbox_kind: 'slurm', exit_code: 0 });
  }, 60_000);
});
