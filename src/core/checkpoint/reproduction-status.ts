import { ReproducibilityReport } from '../../schema/checkpoint.ts';
import { recordCheckCode } from '../../schema/record-check.ts' with { type: 'macro' };
import { join } from 'node:path';
import { checkRecord, compiledCheck, parseCheckpointJson, readCheckpointText } from './records.ts';

const isReproducibilityReport = compiledCheck(recordCheckCode('ReproducibilityReport'));
const REPORT = 'reproducibility_report.json';

/** The graded reproduction of a checkpoint's paper: its ORS score, over how many runs, and whether it can be trusted. */
export type ReproductionStatus = { ors_score: number; n_runs: number; spread: number | null; degraded: boolean; degraded_reason: string | null; negative_control_passed: boolean | null; run_timed_out: boolean };

/** From reproducibility_report.json (written by grade_with_judge); null when there is none, a problem when it is damaged. */
export function reproductionStatus(dir: string, problems: string[]): ReproductionStatus | null {
  const file = join(dir, REPORT);
  const text = readCheckpointText(file, problems);
  // a legacy run wrote its report as text under the same name: no graded reproduction, and no damage
  if (text === null || !text.trimStart().startsWith('{')) return null;
  const value = parseCheckpointJson(file, text, problems);
  const r = value === undefined ? null : checkRecord(file, value, ReproducibilityReport, problems, isReproducibilityReport);
  if (!r) return null;
  return { ors_score: r.ors_score, n_runs: r.n_runs, spread: r.spread ?? null, degraded: r.degraded, degraded_reason: r.degraded_reason ?? null, negative_control_passed: r.negative_control?.passed ?? null, run_timed_out: r.run_timed_out === true };
}
