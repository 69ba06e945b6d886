import { afterAll, afterEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SvcError } from '../../../src/core/errors.ts';
import type { JobContext } from '../../../src/bench/jobs/types.ts';
import { runBenchJob, type WorkStage } from '../../../src/bench/worker.ts';
import type { JobConfigs, LogLevel, ManifestEntry, ReproduceConfig } from '../../../src/schema/bench-api.ts';
import { STAGE_PROGRESS } from '../../../src/schema/bench-api.ts';
import { lacks } from '../../support/components.ts';
import { pathWith, removePathDirs } from '../../support/container.ts';
import { DEMO_N, DEMO_SEED, programFor } from '../../support/demo-program.ts';
import { paperPdf } from '../../support/paper-pdf.ts';
import { isRunning, waitForFile } from '../skills/coding/tool-call.ts';
import { type Fixture, replicateFixture } from '../skills/replicate/replicate-env.ts';

let f: Fixture;
afterEach(() => f.stop());
afterAll(() => removePathDirs());

const SECRETS = { LLM_API_KEY: 'sk-bench-secret-0001', HF_TOKEN: 'hf_bench_secret_0002' };


/**
 * The paper's code bundle where the agent starts, as an artifact import leaves it: the best Shell
 * sort and the insertion-sort baseline. `best` replaces the best program.
 */
function seedBundle(repo: string, best = programFor({ algorithm: 'shell', gapRatio: 2.2, seed: DEMO_SEED, n: DEMO_N })): void {
  const files: Record<string, string> = {
    'README.md': '# Shell sort bundle\nRun node code/best/shell.js and node code/baseline/insertion.js.\n',
    'RESULTS.md': '| config | comparisons |\n|---|---|\n| best | 32617 |\n| baseline | 1013583 |\n',
    'code/best/shell.js': best,
    'code/baseline/insertion.js': programFor({ algorithm: 'insertion', gapRatio: null, seed: DEMO_SEED, n: DEMO_N }),
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, name)), { recursive: true });
    writeFileSync(join(repo, name), text);
  }
}

const ENTRY: ManifestEntry = {
  paper_id: 'shell-sort',
  title: 'Fewer comparisons with geometric Shell sort',
  authors: ['Ada Lovelace'],
  venue: '',
  year: 2026,
  source_type: 'local',
  source: 'paper.pdf',
  artifact_url: '',
  license: 'cc-by-4.0',
  license_assessment: { license: 'cc-by-4.0', permissive: true, modifiable: true, redistributable: true, non_commercial: false, usable: true, note: '' },
  imported_at: '2026-11-28T00:00:00Z',
  registry_dir: '',
};

type Seen = { stages: [WorkStage, number][]; logs: { level: LogLevel; msg: string }[] };

function setUp(env: Record<string, string> = {}) {
  f = replicateFixture();
  const runDir = join(f.dir, 'registry', 'papers', 'shell-sort', 'runs', 'job1');
  seedBundle(join(runDir, 'repro_sandbox'));
  const seen: Seen = { stages: [], logs: [] };
  const controller = new AbortController();
  // the job's own directory is its checkpoint: nothing of the fixture's
  const { SVC_CHECKPOINT_DIR: _, ...base } = f.env({ SVC_MODEL_REPLICATE: 'replicator-model', SVC_MODEL_JUDGE: 'judge-model', ...SECRETS, ...env });
  const ctx: JobContext = {
    env: base,
    signal: controller.signal,
    stage: (stage, progress) => void seen.stages.push([stage as WorkStage, progress as number]),
    log: (level, msg) => void seen.logs.push({ level, msg }),
  };
  const job = (configs: Partial<JobConfigs>) => ({ job_id: 'job1', paper: { ...ENTRY, registry_dir: dirname(dirname(runDir)) }, pdfPath: paperPdf(f.dir), runDir, configs: { rubric: {}, reproduce: {}, judge: {}, ...configs } });
  return { runDir, seen, ctx, controller, job };
}

/** A best program that writes its pid to `pidFile` and hangs, during the agent's build (`during: 'build'`) or the reproduction, which opens reproduce.log first. */
const hanging = (pidFile: string, during: 'build' | 'reproduction') =>
  `const fs = require('fs');\nif (${during === 'build' ? '!' : ''}fs.existsSync('reproduce.log')) { fs.writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000); }\nelse console.log('32617 comparisons');\n`;

const STAGES: [WorkStage, number][] = (['rubric', 'reproduce_build', 'reproduce_run', 'grade'] as const).map((s) => [s, STAGE_PROGRESS[s]]);

function expectNoSecret(seen: Seen, runDir: string): void {
  const text = JSON.stringify(seen.logs) + readFileSync(join(runDir, 'results.json'), 'utf8');
  for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
}

describe.skipIf(lacks('latex'))('runBenchJob', () => {
  test('end to end on the local sandbox: the stages in order, each stage\'s record, results.json written', async () => {
    const { runDir, seen, ctx, job } = setUp();
    // a run request's body may carry agent_env_path (bodies keep fields no schema names): the agent never reads it
    const notRead = join(f.dir, 'not-read.env');
    const r = await runBenchJob(job({ reproduce: { sandbox_kind: 'local', time_limit_sec: 600, agent_env_path: notRead } as ReproduceConfig, judge: { n_runs: 1 } }), ctx);
    // what was returned, before any matcher looks at it
    const returned = JSON.parse(JSON.stringify(r));
    expect(seen.stages).toEqual(STAGES);
    const repo = join(runDir, 'repro_sandbox');
    expect(r).toMatchObject({ paper_id: 'shell-sort', run_dir: runDir, rubric_path: join(runDir, 'rubric.json'), repo_dir: repo });
    // the rubric from the PDF's text: its numbers reached the generator
    expect(r.rubric_manifest).toMatchObject({ two_stage: true, model: 'rubric-model', leaf_count: 11 });
    expect(readFileSync(r.rubric_path, 'utf8')).toContain('32,617');
    expect(r.rubric).toEqual(JSON.parse(readFileSync(r.rubric_path, 'utf8')));
    expect(r.reproduce_build).toMatchObject({ finished: true, reproduce_sh: join(repo, 'reproduce.sh'), sandbox_kind: 'local', model: 'replicator-model' });
    expect(r.reproduce_run).toMatchObject({ sandbox_kind: 'local', exit_code: 0, timed_out: false, time_limit_sec: 600, attempts: [expect.any(Object)] });
    expect(readFileSync(join(repo, 'reproduce.log'), 'utf8')).toContain('32617 comparisons');
    const grade = r.grade as { ors_score: number; leaves_total: number; code_only: boolean; n_runs: number; negative_control: { passed: boolean } };
    expect(grade).toMatchObject({ code_only: false, n_runs: 1, leaves_total: 11, negative_control: { passed: true } });
    expect(grade.ors_score).toBeGreaterThan(0.5);
    expect(r).toMatchObject({ ors_score: grade.ors_score, leaves: 11, negative_control: grade.negative_control });
    expect(JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8'))).toEqual(returned);
    // every model call is in the run directory's cost ledger
    expect(readFileSync(join(runDir, 'cost_trace.jsonl'), 'utf8').trim().split('\n')).toHaveLength(f.server.requests.length);
    expect(seen.logs.map((l) => l.level)).toEqual(['info', 'success', 'info', 'success', 'info', 'success', 'info', 'success']);
    expectNoSecret(seen, runDir);
  }, 120_000);

  test('a reproduction that cannot run is a warning: the job goes on and grades the code only', async () => {
    // slurm asked for where there is no sbatch: the build runs here, the reproduction fails loud
    const bin = pathWith([]);
    for (const name of ['bash', 'node', 'pdftotext', 'dirname', 'env', 'cat']) symlinkSync(Bun.which(name) as string, join(bin, name));
    const { runDir, seen, ctx, job } = setUp({ PATH: bin });
    const r = await runBenchJob(job({ reproduce: { sandbox_kind: 'slurm', time_limit_sec: 600 }, judge: { n_runs: 1, skip_negative_control: true } }), ctx);
    expect(seen.stages).toEqual(STAGES);
    expect((r.reproduce_run as { error: string }).error).toStartWith('sandbox slurm: sbatch is not installed (set SVC_PHASE1_ALLOW_FALLBACK=1');
    expect(seen.logs.filter((l) => l.level === 'warning').map((l) => l.msg)).toContainEqual(expect.stringMatching(/^reproduce_run failed: sandbox slurm: sbatch is not installed .*; grading goes on$/));
    expect(r.grade).toMatchObject({ code_only: true, code_only_reason: 'no reproduce.log in the submission (bridge rule 9)', leaves_total: 4 });
    expect(existsSync(join(runDir, 'results.json'))).toBe(true);
  }, 120_000);

  for (const during of ['build', 'reproduction'] as const) {
    test(`a job cancelled during its ${during} stops at once: no process left, no results`, async () => {
      const { runDir, seen, ctx, controller, job } = setUp();
      const pidFile = join(f.dir, 'hang.pid');
      seedBundle(join(runDir, 'repro_sandbox'), hanging(pidFile, during));
      const outcome = runBenchJob(job({ reproduce: { sandbox_kind: 'local', time_limit_sec: 600 } }), ctx).then(() => 'completed', (err: unknown) => err);
      const pid = Number(await waitForFile(pidFile));
      expect(isRunning(pid)).toBe(true);
      controller.abort();
      expect(await outcome).not.toBe('completed');
      expect(isRunning(pid)).toBe(false);
      const stage = during === 'build' ? 'reproduce_build' : 'reproduce_run';
      expect(seen.stages.map((s) => s[0])).toEqual(during === 'build' ? ['rubric', 'reproduce_build'] : ['rubric', 'reproduce_build', 'reproduce_run']);
      expect(seen.logs.at(-1)).toEqual({ level: 'error', msg: `${stage}: stopped, the job was cancelled` });
      expect(existsSync(join(runDir, 'results.json'))).toBe(false);
      expect(existsSync(join(runDir, 'ors_grade.json'))).toBe(false);
    }, 120_000);
  }

  test('a stage that fails ends the job with an error line naming the stage', async () => {
    const { runDir, seen, ctx, job } = setUp();
    const err = await runBenchJob(job({ reproduce: { sandbox_kind: 'local', forbid_host_filesystem: true } }), ctx).then(() => null, (e: unknown) => e as SvcError);
    expect(err?.message).toBe('sandbox_kind local is refused: forbid_host_filesystem is true and it runs on the host file system');
    expect(seen.logs.at(-1)).toEqual({ level: 'error', msg: `reproduce_build failed: ${err?.message} (${err?.hint})` });
    expect(existsSync(join(runDir, 'rubric.json'))).toBe(true);
    expect(existsSync(join(runDir, 'results.json'))).toBe(false);
  }, 120_000);
});

describe.skipIf(lacks('latex') || lacks('slurm'))('runBenchJob with the reproduction as a real Slurm job', () => {
  test('the build runs here, the reproduction is a Slurm job on the partition, and the job is graded', async () => {
    const { runDir, seen, ctx, job } = setUp();
    const r = await runBenchJob(job({ reproduce: { sandbox_kind: 'slurm', partition: 'debug', time_limit_sec: 600 }, judge: { n_runs: 1 } }), ctx);
    const returned = JSON.parse(JSON.stringify(r));
    expect(seen.stages).toEqual(STAGES);
    expect(r.reproduce_build).toMatchObject({ finished: true, sandbox_kind: 'local' });
    expect(r.reproduce_run).toMatchObject({ sandbox_kind: 'slurm', partition: 'debug', exit_code: 0, job_id: expect.stringMatching(/^\d+$/) });
    expect(readFileSync(join(runDir, 'repro_sandbox', 'reproduce.log'), 'utf8')).toContain('32617 comparisons');
    expect(r.grade).toMatchObject({ code_only: false, leaves_total: 11 });
    expect(r.ors_score).toBeGreaterThan(0.5);
    expect(JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8'))).toEqual(returned);
    expect(returned.reproduce_run.job_id).toMatch(/^\d+$/);
    expectNoSecret(seen, runDir);
  }, 180_000);

  test('a job cancelled while its Slurm job runs: the job is cancelled and its process gone', async () => {
    const { runDir, ctx, controller, job } = setUp();
    const pidFile = join(f.dir, 'hang.pid');
    seedBundle(join(runDir, 'repro_sandbox'), hanging(pidFile, 'reproduction'));
    const outcome = runBenchJob(job({ reproduce: { sandbox_kind: 'slurm', partition: 'debug', time_limit_sec: 600 } }), ctx).then(() => 'completed', (err: unknown) => err);
    const pid = Number(await waitForFile(pidFile));
    controller.abort();
    expect(await outcome).not.toBe('completed');
    expect(isRunning(pid)).toBe(false);
    const ids = readdirSync(join(runDir, '.svc-reproduce', 'jobs', '.svc-jobs')).filter((n) => /^\d+\.json$/.test(n)).map((n) => n.slice(0, -5));
    expect(ids).toHaveLength(1);
    const q = Bun.spawnSync(['squeue', '-h', '-j', ids[0] as string, '-o', '%T'], { stdout: 'pipe', stderr: 'pipe' });
    expect(q.stdout.toString().trim()).toMatch(/^(CANCELLED|COMPLETING|)$/);
  }, 180_000);
});
