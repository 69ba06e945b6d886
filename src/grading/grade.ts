import { mapConcurrent } from '../core/concurrency.ts';
import { InputError } from '../core/errors.ts';
import { unique } from '../core/values.ts';
import type { ModelClient } from '../llm/client.ts';
import { leavesOf } from '../replicate/rubric.ts';
import type { RubricNode } from '../schema/ors-rubric.ts';
import { gradeLeaf, judgeContext } from './judge.ts';
import { BOILERPLATE_SUBMISSION, EMPTY_SUBMISSION, readSubmission } from './submission.ts';
import { pruneToCodeDevelopment, weightedScore } from './tree.ts';
import type { JudgeContext, LeafVerdict, RunOutcome } from './types.ts';


/** Independent gradings when the caller asks for none (n_runs 0): each leaf's score is the mean of three samples of the judge. */
export const DEFAULT_JUDGE_RUNS = 3;

/** A control submission must score below this, or the judge passes work that is not there. */
export const NEGATIVE_CONTROL_MAX = 0.2;

export type GradeJob = {
  client: Pick<ModelClient, 'completeJson'>;
  judgeModel: string;
  rubric: { root: RubricNode; sha256: string };
  paperText: string;
  repoDir: string;
  nRuns: number;
  /** asked for; it also switches on when the submission has no reproduce.log */
  codeOnly: boolean;
  skipNegativeControl: boolean;
  maxConcurrency: number;
  /** how the run of reproduce.sh ended (run_reproduce's record), when it is known */
  run?: RunOutcome | null;
  /** the run's log when it is not reproduce.log at the submission root */
  logPath?: string;
  /** the questions ask whether the paper's claims are supported by the code and logs (bridge rule 10); excludes codeOnly */
  auditMode?: boolean;
  signal?: AbortSignal;
};

export type LeafGrade = {
  leaf_id: string;
  requirements: string;
  task_category: string | null;
  weight: number;
  score: number;
  runs: number[];
  explanation: string;
  evidence: string[];
  /** what the judge named that is no file shown to it nor text of the log shown: recorded, not counted */
  evidence_unverified: string[];
  judge_error?: string;
};

/**
 * passed is null when not decided: the controls were skipped, or a control leaf has no valid judge
 * answer (judge_errors counts them), as a judge that breaks on a control must not pass it.
 */
export type NegativeControl = { empty: number | null; boilerplate: number | null; passed: boolean | null; threshold: number; judge_errors?: number; skipped?: true };

export type OrsGrade = {
  rubric_sha256: string;
  ors_score: number;
  raw_score: number;
  leaf_grades: LeafGrade[];
  judge_model: string;
  n_runs: number;
  run_scores: number[];
  spread: number;
  code_only: boolean;
  code_only_reason?: string;
  /** graded with the audit questions (bridge rule 10) */
  paper_audit_mode?: true;
  elapsed_sec: number;
  leaves_total: number;
  leaves_graded: number;
  leaves_failed_by_judge: number;
  leaves_passed: number;
  rubric_leaves_total: number;
  negative_control: NegativeControl;
  degraded: boolean;
  degraded_reason?: string;
  submission_root: string;
  reproduce_log: string | null;
  /** how the graded run ended; a run stopped at its time limit is graded on what it did before */
  run: RunOutcome | null;
  graded_at: string;
};

type Task = { leaf: number; run: number } | { leaf: number; control: 'empty' | 'boilerplate' };

const round = (x: number) => Math.round(x * 10_000) / 10_000;

/**
 * Every leaf of the rubric graded by the judge n_runs times, the scores aggregated up the tree,
 * and the same leaves graded once for an empty and a boilerplate submission. All model calls share
 * one limit of calls in flight.
 */
export async function gradeSubmission(job: GradeJob): Promise<OrsGrade> {
  const started = performance.now();
  if (job.auditMode && job.codeOnly) throw new InputError('paper_audit_mode and code_only exclude each other: an audit grades every claim of the paper', 'give one of them');
  const view = readSubmission(job.repoDir, job.logPath);
  const rubricLeaves = leavesOf(job.rubric.root).length;
  // an audit grades every leaf: a missing log is what the judge is told, so claims that need a run fail
  const autoCodeOnly = !job.codeOnly && !job.auditMode && view.log === null;
  const codeOnly = job.codeOnly || autoCodeOnly;
  const root = codeOnly ? pruneToCodeDevelopment(job.rubric.root) : job.rubric.root;
  if (root === null) throw new InputError('the rubric has no Code Development leaf to grade code_only', autoCodeOnly ? 'the submission has no reproduce.log: run reproduce.sh first (run_reproduce)' : 'grade without code_only');
  const leaves = leavesOf(root);
  const index = new Map(leaves.map((l, i) => [l, i]));

  const stance = job.auditMode ? 'audit' : 'reproduction';
  const contexts: Record<'submission' | 'empty' | 'boilerplate', JudgeContext> = {
    submission: judgeContext(job.paperText, view, job.run ?? null, stance),
    empty: judgeContext(job.paperText, EMPTY_SUBMISSION, null, stance),
    boilerplate: judgeContext(job.paperText, BOILERPLATE_SUBMISSION, null, stance),
  };
  const tasks: Task[] = [];
  for (let run = 0; run < job.nRuns; run++) for (let leaf = 0; leaf < leaves.length; leaf++) tasks.push({ leaf, run });
  if (!job.skipNegativeControl) for (const control of ['empty', 'boilerplate'] as const) for (let leaf = 0; leaf < leaves.length; leaf++) tasks.push({ leaf, control });
  const verdicts = await mapConcurrent(tasks, job.maxConcurrency, (t) => {
    const leaf = leaves[t.leaf] as RubricNode;
    return 'run' in t ? gradeLeaf(job.client, leaf, contexts.submission, t.run, job.signal) : gradeLeaf(job.client, leaf, contexts[t.control], 0, job.signal);
  });

  const runs: LeafVerdict[][] = leaves.map(() => []);
  const controls = { empty: leaves.map(() => 0), boilerplate: leaves.map(() => 0) };
  let controlErrors = 0;
  tasks.forEach((t, i) => {
    const v = verdicts[i] as LeafVerdict;
    if ('run' in t) (runs[t.leaf] as LeafVerdict[])[t.run] = v;
    else {
      controls[t.control][t.leaf] = v.score;
      if (v.judge_error !== undefined) controlErrors++;
    }
  });

  const leafGrades = leaves.map((leaf, i) => leafGrade(leaf, runs[i] as LeafVerdict[]));
  const scoreOf = (f: (i: number) => number) => (leaf: RubricNode) => f(index.get(leaf) as number);
  const runScores = Array.from({ length: job.nRuns }, (_, r) => weightedScore(root, scoreOf((i) => (runs[i] as LeafVerdict[])[r]?.score ?? 0)));
  const orsScore = weightedScore(root, scoreOf((i) => (leafGrades[i] as LeafGrade).score));
  const failedByJudge = leafGrades.filter((g) => g.judge_error !== undefined).length;
  const negative = negativeControl(job.skipNegativeControl, controlErrors, () => ({
    empty: weightedScore(root, scoreOf((i) => controls.empty[i] ?? 0)),
    boilerplate: weightedScore(root, scoreOf((i) => controls.boilerplate[i] ?? 0)),
  }));

  const reasons: string[] = [];
  if (failedByJudge > 0) reasons.push(`${failedByJudge} of ${leaves.length} leaves have no valid judge answer (missing, malformed or out of range) and are counted as failed`);
  // fewer leaves graded than the rubric holds, whether asked for or not
  if (codeOnly) reasons.push(`${autoCodeOnly ? 'no reproduce.log: ' : ''}graded code_only: ${leaves.length} of ${rubricLeaves} rubric leaves`);
  if (controlErrors > 0) reasons.push(`negative control not decided: ${controlErrors} of ${2 * leaves.length} control leaves have no valid judge answer (missing, malformed or out of range)`);
  if (negative.passed === false) reasons.push(`negative control failed: the empty submission scored ${negative.empty}, the boilerplate one ${negative.boilerplate} (each must be below ${NEGATIVE_CONTROL_MAX})`);

  return {
    rubric_sha256: job.rubric.sha256,
    ors_score: round(orsScore),
    raw_score: round(leafGrades.reduce((s, g) => s + g.score, 0) / leaves.length),
    leaf_grades: leafGrades,
    judge_model: job.judgeModel,
    n_runs: job.nRuns,
    run_scores: runScores.map(round),
    spread: round(Math.max(...runScores) - Math.min(...runScores)),
    code_only: codeOnly,
    ...(job.auditMode ? { paper_audit_mode: true } : {}),
    ...(codeOnly ? { code_only_reason: autoCodeOnly ? 'no reproduce.log in the submission (bridge rule 9)' : 'asked for' } : {}),
    elapsed_sec: round((performance.now() - started) / 1000),
    leaves_total: leaves.length,
    leaves_graded: leaves.length - failedByJudge,
    leaves_failed_by_judge: failedByJudge,
    // passed by a majority of the runs
    leaves_passed: leafGrades.filter((g) => g.score > 0.5).length,
    rubric_leaves_total: rubricLeaves,
    negative_control: negative,
    degraded: reasons.length > 0,
    ...(reasons.length ? { degraded_reason: reasons.join('; ') } : {}),
    submission_root: view.root as string,
    reproduce_log: view.logPath,
    run: job.run ?? null,
    graded_at: new Date().toISOString(),
  };
}

function leafGrade(leaf: RubricNode, runs: LeafVerdict[]): LeafGrade {
  const errors = runs.flatMap((v, r) => (v.judge_error ? [runs.length > 1 ? `run ${r + 1}: ${v.judge_error}` : v.judge_error] : []));
  const answered = runs.find((v) => !v.judge_error) ?? runs[0];
  return {
    leaf_id: leaf.id,
    requirements: leaf.requirements,
    task_category: leaf.task_category ?? null,
    weight: leaf.weight,
    score: round(runs.reduce((s, v) => s + v.score, 0) / runs.length),
    runs: runs.map((v) => v.score),
    explanation: answered?.explanation ?? '',
    evidence: unique(runs.flatMap((v) => v.evidence)),
    evidence_unverified: unique(runs.flatMap((v) => v.evidence_unverified)),
    ...(errors.length ? { judge_error: errors.join('; ') } : {}),
  };
}

function negativeControl(skip: boolean, judgeErrors: number, scores: () => { empty: number; boilerplate: number }): NegativeControl {
  if (skip) return { empty: null, boilerplate: null, passed: null, threshold: NEGATIVE_CONTROL_MAX, skipped: true };
  const s = scores();
  // a control leaf the judge failed on scores 0, which is no evidence the control fails
  const passed = judgeErrors > 0 ? null : s.empty < NEGATIVE_CONTROL_MAX && s.boilerplate < NEGATIVE_CONTROL_MAX;
  return { empty: round(s.empty), boilerplate: round(s.boilerplate), passed, threshold: NEGATIVE_CONTROL_MAX, judge_errors: judgeErrors };
}
