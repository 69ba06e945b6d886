import { writeJsonAtomic } from '../core/atomic.ts';
import type { NegativeControl, OrsGrade } from './grade.ts';

export const GRADE_FILE = 'ors_grade.json';
export const REPORT_FILE = 'reproducibility_report.json';

/** The summary of a grade the dashboard and `svc status` show, without the per-leaf detail. */
export type ReproducibilityReport = {
  ors_score: number;
  raw_score: number;
  n_runs: number;
  spread: number;
  degraded: boolean;
  degraded_reason?: string;
  negative_control: NegativeControl;
  leaves_total: number;
  leaves_passed: number;
  code_only: boolean;
  /** the graded run was stopped at its time limit */
  run_timed_out: boolean;
  judge_model: string;
  rubric_sha256: string;
  graded_at: string;
};

export function reproducibilityReport(g: OrsGrade): ReproducibilityReport {
  return {
    ors_score: g.ors_score,
    raw_score: g.raw_score,
    n_runs: g.n_runs,
    spread: g.spread,
    degraded: g.degraded,
    ...(g.degraded_reason ? { degraded_reason: g.degraded_reason } : {}),
    negative_control: g.negative_control,
    leaves_total: g.leaves_total,
    leaves_passed: g.leaves_passed,
    code_only: g.code_only,
    run_timed_out: g.run?.timed_out === true,
    judge_model: g.judge_model,
    rubric_sha256: g.rubric_sha256,
    graded_at: g.graded_at,
  };
}

/** Both files, each whole or not at all: a reader never sees a grade half written. */
export function writeGrade(grade: OrsGrade, paths: { grade: string; report: string }): void {
  writeJsonAtomic(paths.grade, grade);
  writeJsonAtomic(paths.report, reproducibilityReport(grade));
}
