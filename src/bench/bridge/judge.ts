/**
 * Stage 3 of the bridge: every leaf of the rubric graded by the judge against the submission and
 * its run (gradeSubmission: negative controls, code_only by itself without reproduce.log), with
 * the audit questions when paper_audit_mode is on (rule 10).
 */
import { join } from 'node:path';
import type { Env } from '../../core/config/env-vars.ts';
import { NotFoundError } from '../../core/errors.ts';
import { isFileAt, statOrNull } from '../../core/paths.ts';
import { printable } from '../../core/text.ts';
import { DEFAULT_JUDGE_RUNS, gradeSubmission, type OrsGrade } from '../../grading/grade.ts';
import { GRADE_FILE, REPORT_FILE, writeGrade } from '../../grading/report.ts';
import type { RunOutcome } from '../../grading/types.ts';
import type { PaperSource } from '../../replicate/paper.ts';
import { lastRunOf } from '../../reproduce/run-reproduce.ts';
import { stageClient } from './model.ts';
import { bridgePaper } from './paper.ts';
import { bridgeRubric, type RubricArg } from './rubric.ts';

const DEFAULT_CONCURRENCY = 8;

export type JudgeParams = {
  paper_md?: string;
  paper?: PaperSource;
  rubric: RubricArg;
  submission_dir: string;
  /** the run's log; default reproduce.log at the submission root */
  reproduce_log?: string;
  judge_model?: string;
  paper_audit_mode?: boolean;
  code_only?: boolean;
  n_runs?: number;
  skip_negative_control?: boolean;
  max_concurrency?: number;
  /** how the run ended; default the record in checkpoint_dir (ors_phase1.json) when it is of this submission */
  run?: RunOutcome | null;
  /** where the cost ledger, ors_grade.json and reproducibility_report.json go; nothing is written without it */
  checkpoint_dir?: string;
  env: Env;
  signal?: AbortSignal;
};

export async function judgeSubmission(p: JudgeParams): Promise<OrsGrade> {
  const rubric = bridgeRubric(p.rubric);
  if (!statOrNull(p.submission_dir)?.isDirectory()) throw new NotFoundError(`submission_dir ${printable(p.submission_dir)} is not a directory`, 'give the directory the submission was built in');
  if (p.reproduce_log && !isFileAt(p.reproduce_log)) throw new NotFoundError(`reproduce_log ${printable(p.reproduce_log)} is not a file`, 'give the log of the run, or leave it out to use reproduce.log of the submission');
  const nRuns = p.n_runs || DEFAULT_JUDGE_RUNS;
  const paper = await bridgePaper(p, p.env);
  const client = stageClient(p.env, 'judge', 'SVC_MODEL_JUDGE', p.judge_model, p.checkpoint_dir ?? null);
  const grade = await gradeSubmission({
    client,
    judgeModel: client.choice('judge').model,
    rubric,
    paperText: paper.text,
    repoDir: p.submission_dir,
    nRuns,
    codeOnly: p.code_only ?? false,
    skipNegativeControl: p.skip_negative_control ?? false,
    maxConcurrency: p.max_concurrency ?? DEFAULT_CONCURRENCY,
    run: p.run !== undefined ? p.run : p.checkpoint_dir ? lastRunOf(p.checkpoint_dir, p.submission_dir) : null,
    ...(p.reproduce_log ? { logPath: p.reproduce_log } : {}),
    ...(p.paper_audit_mode ? { auditMode: true } : {}),
    ...(p.signal ? { signal: p.signal } : {}),
  });
  if (p.checkpoint_dir) writeGrade(grade, { grade: join(p.checkpoint_dir, GRADE_FILE), report: join(p.checkpoint_dir, REPORT_FILE) });
  return grade;
}
