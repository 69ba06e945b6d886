import { describe, expect, test } from 'bun:test';
import { estimateCost, estimateRun } from '../../../src/bench/cost.ts';
import type { CostEstimate } from '../../../src/schema/bench-api.ts';

/** The totals are the sums of the breakdown: seconds exactly, dollars to the cent. */
function expectSums(e: CostEstimate): void {
  const parts = Object.values(e.breakdown);
  expect(e.wall_time_sec).toBe(parts.reduce((s, p) => s + p.wall_time_sec, 0));
  expect(Math.round(e.llm_cost_usd * 100)).toBe(parts.reduce((s, p) => s + Math.round(p.cost_usd * 100), 0));
  expect(e.llm_cost_usd).toBe(Math.round(e.llm_cost_usd * 100) / 100);
}

describe('estimateCost', () => {
  test('defaults: two-stage rubric, a 43200 s reproduction, three judge runs', () => {
    const e = estimateCost({});
    expect(e).toEqual({
      wall_time_sec: 300 + 43200 + 180,
      llm_cost_usd: 2.75,
      breakdown: { rubric: { wall_time_sec: 300, cost_usd: 0.45 }, reproduce: { wall_time_sec: 43200, cost_usd: 2 }, judge: { wall_time_sec: 180, cost_usd: 0.3 } },
    });
    expectSums(e);
  });

  test('a one-stage rubric, the time limit and n_runs given; n_runs 0 is the default 3', () => {
    const e = estimateCost({ rubric: { two_stage: false }, reproduce: { time_limit_sec: 3600 }, judge: { n_runs: 5 } });
    expect(e.breakdown).toEqual({ rubric: { wall_time_sec: 180, cost_usd: 0.2 }, reproduce: { wall_time_sec: 3600, cost_usd: 2 }, judge: { wall_time_sec: 300, cost_usd: 0.5 } });
    expect(e).toMatchObject({ wall_time_sec: 4080, llm_cost_usd: 2.7 });
    expectSums(e);
    expect(estimateCost({ judge: { n_runs: 0 } }).breakdown.judge).toEqual({ wall_time_sec: 180, cost_usd: 0.3 });
  });

  test('the totals equal the sums for every number of runs and either rubric mode', () => {
    for (const n_runs of [1, 2, 3, 7, 10]) for (const two_stage of [true, false]) expectSums(estimateCost({ rubric: { two_stage }, judge: { n_runs }, reproduce: { time_limit_sec: 1234 } }));
  });
});

describe('estimateRun (dry run)', () => {
  test('one paper\'s estimate and the totals over the papers', () => {
    const r = estimateRun(3, { judge: { n_runs: 1 } });
    expect(r).toEqual({ dry_run: true, estimated_cost: estimateCost({ judge: { n_runs: 1 } }), papers: 3, estimated_total_walltime_sec: 3 * (300 + 43200 + 60), estimated_total_cost_usd: 7.65 });
    expect(estimateRun(0, {})).toMatchObject({ papers: 0, estimated_total_walltime_sec: 0, estimated_total_cost_usd: 0 });
  });
});
