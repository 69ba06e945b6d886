import { duration, usd } from '../../format.ts';
import type { CostEstimate, DryRun } from './types.ts';

const PARTS = [
  ['rubric', 'Rubric'],
  ['reproduce', 'Reproduction'],
  ['judge', 'Judging'],
] as const;

/** One paper's projected time and model spend by stage, and the totals over the papers chosen. */
export function CostEstimateView({ estimate, run }: { estimate: CostEstimate; run: DryRun | null }) {
  return (
    <div className="bench-estimate">
      <table className="bench-table">
        <caption>Estimate for one paper</caption>
        <thead>
          <tr>
            <th scope="col">Stage</th>
            <th scope="col" className="num">
              Wall time
            </th>
            <th scope="col" className="num">
              Model cost
            </th>
          </tr>
        </thead>
        <tbody>
          {PARTS.map(([key, label]) => (
            <tr key={key}>
              <th scope="row">{label}</th>
              <td className="num">{duration(estimate.breakdown[key].wall_time_sec)}</td>
              <td className="num">{usd(estimate.breakdown[key].cost_usd)}</td>
            </tr>
          ))}
          <tr className="bench-total">
            <th scope="row">One paper</th>
            <td className="num">{duration(estimate.wall_time_sec)}</td>
            <td className="num">{usd(estimate.llm_cost_usd)}</td>
          </tr>
        </tbody>
      </table>
      <p className="bench-totals" aria-live="polite">
        {run
          ? `${run.papers} ${run.papers === 1 ? 'paper' : 'papers'}: ${duration(run.estimated_total_walltime_sec)} of jobs, ${usd(run.estimated_total_cost_usd)} of model calls in all.`
          : 'Choose papers to see the totals.'}
      </p>
    </div>
  );
}
