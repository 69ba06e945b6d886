import { dirname, join } from 'node:path';
import { Type as T } from '@sinclair/typebox';
import { envValue } from '../../core/config/env-vars.ts';
import { InputError, NotFoundError } from '../../core/errors.ts';
import { statOrNull } from '../../core/paths.ts';
import { DEFAULT_JUDGE_RUNS, gradeSubmission } from '../../grading/grade.ts';
import { GRADE_FILE, REPORT_FILE, writeGrade } from '../../grading/report.ts';
import { defineTool, type ToolContext, toolParams } from '../../mcp/tool.ts';
import { readRubric } from '../../replicate/rubric.ts';
import { lastRunOf } from '../../reproduce/run-reproduce.ts';
import { checkpointPath } from '../checkpoint-path.ts';
import { orsSetting, paperArg, roleClient } from '../replicate/settings.ts';

const DEFAULT_CONCURRENCY = 8;
const MAX_CONCURRENCY = 64;

export const gradeWithJudgeTool = defineTool({
  name: 'grade_with_judge',
  description:
    'Grade a reproduction against its rubric as PaperBench does: every leaf graded 0 or 1 by the judge model (SVC_MODEL_JUDGE unless judge_model is given), which sees the requirement, the paper, the submission (its files, the contents of small text files; a nested submission/ directory is the root) and the end of reproduce.log, and names the evidence it used; evidence that names no file of the submission and is no text of the log shown (whitespace aside) is kept apart per leaf (evidence_unverified) and does not change the score. ' +
    'Fails closed: a missing answer, one still malformed after one correction, or a score other than 0 or 1 fails its leaf and is counted (leaves_failed_by_judge), and the grade is degraded. ' +
    'Scores are weighted means up the tree (ors_score) and the unweighted mean of the leaves (raw_score); n_runs independent gradings (0: 3), each leaf the mean of its runs, with run_scores and spread (max - min). ' +
    'Negative controls (unless skip_negative_control): an empty and a boilerplate submission, each leaf graded once, must each score below 0.2, else negative_control.passed is false and the grade degraded; a control leaf without a valid judge answer is counted (negative_control.judge_errors), leaves passed null (not decided) and degrades the grade. ' +
    'code_only grades only the Code Development leaves, and the grade is degraded (fewer leaves graded than the rubric holds); it switches on by itself when there is no reproduce.log. ' +
    'Writes ors_grade.json {rubric_sha256, ors_score, raw_score, leaf_grades: [{leaf_id, requirements, task_category, weight, score, runs, explanation, evidence, evidence_unverified, judge_error?}], judge_model, n_runs, run_scores, spread, code_only, elapsed_sec, leaves_total, leaves_graded, leaves_failed_by_judge, leaves_passed, negative_control: {empty, boilerplate, passed, threshold, judge_errors}, degraded, degraded_reason?} ' +
    'and reproducibility_report.json (its summary) to the checkpoint, else beside the rubric; returns the grade with grade_path and report_path.',
  params: toolParams({
    rubric_path: T.String({ description: 'the rubric (ors_rubric.json): absolute inside the checkpoint, or relative to it' }),
    repo_dir: T.String({ description: "the reproduction's repository (repro_sandbox), holding reproduce.sh and, once run, reproduce.log" }),
    paper_path: T.Optional(T.String({ description: 'the paper (.tex, .md or .pdf)' })),
    paper_text: T.Optional(T.String({ description: 'the paper as text, when no paper_path is given' })),
    judge_model: T.Optional(T.String({ description: 'the judge model; default SVC_MODEL_JUDGE' })),
    n_runs: T.Optional(T.Integer({ minimum: 0, maximum: 10, description: 'independent gradings; 0 (default): the ors.judge_n_runs setting, else 3' })),
    skip_negative_control: T.Optional(T.Boolean({ description: 'do not grade the empty and boilerplate controls; default false' })),
    code_only: T.Optional(T.Boolean({ description: 'grade only the Code Development leaves; default false, on by itself without reproduce.log' })),
    max_concurrency: T.Optional(T.Integer({ minimum: 1, maximum: MAX_CONCURRENCY, description: `judge calls in flight at once; default SVC_JUDGE_CONCURRENCY, else ${DEFAULT_CONCURRENCY}` })),
  }),
  timeoutS: 7200,
  run: async (args, ctx) => {
    // everything that can be refused is, before any model is asked or anything written
    const rubricPath = checkpointPath(args.rubric_path, 'rubric_path', ctx.env);
    const rubric = readRubric(rubricPath);
    const repoDir = checkpointPath(args.repo_dir, 'repo_dir', ctx.env);
    if (!statOrNull(repoDir)?.isDirectory()) throw new NotFoundError(`repo_dir ${repoDir} is not a directory`, 'build the reproduction first (build_reproduce_sh)');
    const paper = await paperArg(args, ctx);
    const concurrency = args.max_concurrency ?? concurrencyFromEnv(ctx);
    const { cfg, client } = roleClient(ctx, 'judge', 'SVC_MODEL_JUDGE', args.judge_model);
    const nRuns = args.n_runs || Number(orsSetting(cfg, 'ors.judge_n_runs') ?? DEFAULT_JUDGE_RUNS);
    const checkpoint = envValue(ctx.env, 'SVC_CHECKPOINT_DIR');
    const grade = await gradeSubmission({
      client,
      judgeModel: client.choice('judge').model,
      rubric,
      paperText: paper.text,
      repoDir,
      nRuns,
      codeOnly: args.code_only ?? false,
      skipNegativeControl: args.skip_negative_control ?? false,
      maxConcurrency: concurrency,
      run: checkpoint ? lastRunOf(checkpoint, repoDir) : null,
      signal: ctx.signal,
    });
    const outDir = checkpoint ?? dirname(rubricPath);
    const paths = { grade: join(outDir, GRADE_FILE), report: join(outDir, REPORT_FILE) };
    writeGrade(grade, paths);
    return { ...grade, grade_path: paths.grade, report_path: paths.report };
  },
});

function concurrencyFromEnv(ctx: ToolContext): number {
  const raw = envValue(ctx.env, 'SVC_JUDGE_CONCURRENCY');
  if (raw === null) return DEFAULT_CONCURRENCY;
  const n = Number(raw.trim());
  if (!Number.isInteger(n) || n < 1 || n > MAX_CONCURRENCY) throw new InputError(`SVC_JUDGE_CONCURRENCY must be a whole number from 1 to ${MAX_CONCURRENCY}, got '${raw}'`);
  return n;
}
