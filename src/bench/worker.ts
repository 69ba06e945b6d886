/**
 * One benchmark job, the three stages of the protocol in this process over the bridge: the rubric
 * from the paper's PDF, an agent's build of the submission, its reproduction (not fatal: a failed
 * run is graded on its code), and the grade. Everything the job makes is in its run directory
 * (`<registry>/papers/<paper_id>/runs/<job_id>/`): rubric.json, repro_sandbox/, the stages'
 * records, the cost ledger of its model calls, and results.json, written last.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeJsonAtomic } from '../core/atomic.ts';
import { oneLine } from '../core/errors.ts';
import { readJsonObject } from '../core/json-object.ts';
import type { OrsGrade } from '../grading/grade.ts';
import { generateRubric } from '../replicate/generate.ts';
import { clampLeaves, readPaper, suggestLeafCount } from '../replicate/paper.ts';
import type { JobConfigs, JobResults } from '../schema/bench-api.ts';
import { STAGE_PROGRESS } from '../schema/bench-api.ts';
import { judgeSubmission } from './bridge/judge.ts';
import { stageClient } from './bridge/model.ts';
import { type ReproduceOutcome, reproduceSubmission } from './bridge/reproduce.ts';
import { rolloutSubmission } from './bridge/rollout.ts';
import { DEFAULT_TIME_LIMIT_SEC } from './defaults.ts';
import type { BenchJobInput, JobContext } from './jobs/types.ts';

export const RUBRIC_FILE = 'rubric.json';
export const REPO_DIR = 'repro_sandbox';
export const RESULTS_FILE = 'results.json';

export type WorkStage = 'rubric' | 'reproduce_build' | 'reproduce_run' | 'grade';

/** A job executor (JobExecutor of the queue); each stage is reported on entry with its STAGE_PROGRESS. */
export async function runBenchJob(job: BenchJobInput, ctx: JobContext): Promise<JobResults> {
  let current: WorkStage = 'rubric';
  const enter = (stage: WorkStage) => {
    ctx.signal.throwIfAborted();
    current = stage;
    ctx.stage(stage, STAGE_PROGRESS[stage]);
  };
  try {
    return await runStages(job, ctx, enter);
  } catch (err) {
    ctx.log('error', ctx.signal.aborted ? `${current}: stopped, the job was cancelled` : `${current} failed: ${oneLine(err)}`);
    throw err;
  }
}

async function runStages(job: BenchJobInput, ctx: JobContext, enter: (stage: WorkStage) => void): Promise<JobResults> {
  const { runDir } = job;
  const { env, signal } = ctx;
  const rc = job.configs.reproduce ?? {};
  const rb = job.configs.rubric ?? {};
  const jc = job.configs.judge ?? {};
  mkdirSync(runDir, { recursive: true });

  enter('rubric');
  const paper = await readPaper(job.pdfPath, undefined, env);
  const target = rb.target_leaf_count ? clampLeaves(rb.target_leaf_count) : suggestLeafCount(paper.text).target_leaf_count;
  const twoStage = rb.two_stage ?? true;
  ctx.log('info', `rubric: generating about ${target} leaves from ${job.paper.paper_id}'s paper (${twoStage ? 'two-stage' : 'one call'})`);
  const rubricPath = join(runDir, RUBRIC_FILE);
  const rubric = await generateRubric({
    client: stageClient(env, 'rubric_gen', 'SVC_MODEL_RUBRIC_GEN', rb.model, runDir),
    paper,
    outputPath: rubricPath,
    targetLeafCount: target,
    temperature: rb.temperature ?? 0,
    seed: 0,
    twoStage,
    signal,
  });
  ctx.log('success', `rubric: ${rubric.meta.leaf_count} leaves in ${rubric.axes.length} axes by ${rubric.meta.model}`);

  enter('reproduce_build');
  const repoDir = join(runDir, REPO_DIR);
  const timeLimit = rc.time_limit_sec ?? DEFAULT_TIME_LIMIT_SEC;
  ctx.log('info', `reproduce_build: the agent builds reproduce.sh in ${repoDir} (sandbox ${rc.sandbox_kind ?? 'auto'}, at most ${timeLimit} s)`);
  const build = await rolloutSubmission({
    paper,
    work_dir: repoDir,
    checkpoint_dir: runDir,
    env,
    rubric: rubricPath,
    time_limit_sec: timeLimit,
    overwrite: true,
    signal,
    agent_model: rc.model,
    sandbox_kind: rc.sandbox_kind,
    container_image: rc.container_image,
    iterative_agent: rc.iterative_agent,
    max_steps: rc.max_steps,
    forbid_host_filesystem: rc.forbid_host_filesystem,
    blacklist_urls: rc.blacklist_urls,
  });
  ctx.log('success', `reproduce_build: ${'skipped' in build ? build.reason : `reproduce.sh built in ${build.steps} steps (${build.files_written.length} files written)`}`);

  enter('reproduce_run');
  let run: ReproduceOutcome | { error: string };
  try {
    ctx.log('info', `reproduce_run: running reproduce.sh (sandbox ${rc.sandbox_kind ?? 'auto'}, at most ${timeLimit} s${rc.salvage_retries ? `, ${rc.salvage_retries} salvage retries` : ''})`);
    run = await reproduceSubmission({ submission_dir: repoDir, checkpoint_dir: runDir, rubric_path: rubricPath, time_limit_sec: timeLimit, env, signal, ...reproduceFlags(rc) });
    const how = run.timed_out ? `stopped at its time limit after ${run.wall_time_sec} s` : `exit code ${run.exit_code} after ${run.wall_time_sec} s`;
    const attempts = run.attempts.length > 1 ? ` (attempt ${run.attempts.length})` : '';
    ctx.log(run.exit_code === 0 ? 'success' : 'warning', `reproduce_run: ${run.sandbox_kind}, ${how}${attempts}`);
  } catch (err) {
    if (signal.aborted) throw err;
    // not fatal: the submission is graded on its code (code_only switches on without reproduce.log)
    run = { error: oneLine(err) };
    ctx.log('warning', `reproduce_run failed: ${run.error}; grading goes on`);
  }

  enter('grade');
  ctx.log('info', `grade: the judge grades ${rubric.meta.leaf_count} leaves${jc.paper_audit_mode ? ' (paper audit)' : ''}`);
  const grade: OrsGrade = await judgeSubmission({
    paper,
    rubric: rubricPath,
    submission_dir: repoDir,
    checkpoint_dir: runDir,
    run: 'error' in run ? null : { exit_code: run.exit_code, timed_out: run.timed_out, wall_time_sec: run.wall_time_sec },
    env,
    signal,
    judge_model: jc.model,
    n_runs: jc.n_runs,
    code_only: jc.code_only,
    skip_negative_control: jc.skip_negative_control,
    paper_audit_mode: jc.paper_audit_mode,
  });
  ctx.log(grade.degraded ? 'warning' : 'success', `grade: ORS score ${grade.ors_score} (${grade.leaves_passed} of ${grade.leaves_total} leaves passed${grade.code_only ? ', code only' : ''})${grade.degraded_reason ? `; degraded: ${grade.degraded_reason}` : ''}`);

  const results: JobResults = {
    paper_id: job.paper.paper_id,
    run_dir: runDir,
    rubric_path: rubricPath,
    repo_dir: repoDir,
    rubric_manifest: rubric.meta,
    rubric: readJsonObject(rubricPath),
    reproduce_build: build,
    reproduce_run: run,
    grade,
    ors_score: grade.ors_score,
    leaves: rubric.meta.leaf_count,
    negative_control: grade.negative_control,
  };
  writeJsonAtomic(join(runDir, RESULTS_FILE), results);
  return results;
}

function reproduceFlags(rc: JobConfigs['reproduce']) {
  return {
    sandbox_kind: rc.sandbox_kind,
    container_image: rc.container_image,
    partition: rc.partition,
    nodes: rc.nodes,
    ntasks: rc.ntasks,
    ntasks_per_node: rc.ntasks_per_node,
    gpus_per_task: rc.gpus_per_task,
    gpu_type: rc.gpu_type,
    memory_gb_per_node: rc.memory_gb_per_node,
    exclusive: rc.exclusive,
    constraint: rc.constraint,
    cpu_bind: rc.cpu_bind,
    extra_sbatch_args: rc.extra_sbatch_args,
    capture_tarball: rc.capture_tarball,
    salvage_retries: rc.salvage_retries,
    retry_threshold_sec: rc.retry_threshold_sec,
    forbid_host_filesystem: rc.forbid_host_filesystem,
  };
}

