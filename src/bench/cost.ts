/**
 * The projected wall time and model spend of one paper's job, by the reference's formula: rubric
 * 300 s / $0.45 two-stage (the default) else 180 s / $0.20; reproduction time_limit_sec (default
 * 43200) / $2.00; judge 60 s and $0.10 per grading run. n_runs unset or 0 counts as 3, the runs
 * the worker grades with (the reference counts 1). Each part is rounded (seconds to whole, dollars
 * to cents) before the totals are summed from them, so the totals always equal the sum of the breakdown.
 */
import type { CostEstimate, JobConfigs } from '../schema/bench-api.ts';
import { DEFAULT_JUDGE_RUNS } from '../grading/grade.ts';
import { DEFAULT_TIME_LIMIT_SEC } from './defaults.ts';

const RUBRIC = { twoStage: { wall_time_sec: 300, cost_usd: 0.45 }, oneStage: { wall_time_sec: 180, cost_usd: 0.2 } };
const REPRODUCE_COST_USD = 2;
const JUDGE_PER_RUN = { wall_time_sec: 60, cost_usd: 0.1 };

const cents = (usd: number) => Math.round(usd * 100);

export function estimateCost(configs: Partial<JobConfigs>): CostEstimate {
  const rubric = configs.rubric?.two_stage === false ? RUBRIC.oneStage : RUBRIC.twoStage;
  const runs = configs.judge?.n_runs || DEFAULT_JUDGE_RUNS;
  const parts = {
    rubric: part(rubric.wall_time_sec, rubric.cost_usd),
    reproduce: part(configs.reproduce?.time_limit_sec ?? DEFAULT_TIME_LIMIT_SEC, REPRODUCE_COST_USD),
    judge: part(JUDGE_PER_RUN.wall_time_sec * runs, JUDGE_PER_RUN.cost_usd * runs),
  };
  const all = Object.values(parts);
  return {
    wall_time_sec: all.reduce((s, x) => s + x.wall_time_sec, 0),
    // summed in cents: dollars as floats would add up to 2.7500000000000004
    llm_cost_usd: all.reduce((s, x) => s + cents(x.cost_usd), 0) / 100,
    breakdown: parts,
  };
}

function part(wallSec: number, usd: number): { wall_time_sec: number; cost_usd: number } {
  return { wall_time_sec: Math.round(wallSec), cost_usd: cents(usd) / 100 };
}

/** The answer of a dry run: one paper's estimate and the totals over `paperCount` papers. */
export type RunEstimate = { dry_run: true; estimated_cost: CostEstimate; papers: number; estimated_total_walltime_sec: number; estimated_total_cost_usd: number };

export function estimateRun(paperCount: number, configs: Partial<JobConfigs>): RunEstimate {
  const one = estimateCost(configs);
  return {
    dry_run: true,
    estimated_cost: one,
    papers: paperCount,
    estimated_total_walltime_sec: one.wall_time_sec * paperCount,
    estimated_total_cost_usd: (cents(one.llm_cost_usd) * paperCount) / 100,
  };
}
