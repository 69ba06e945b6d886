import { Empty, ErrorMessage, Loading } from '../../components/states.tsx';
import { epochSeconds, when } from '../../format.ts';
import { useApi } from '../../use-api.ts';
import type { LineageDecision } from './types.ts';

/** The lineage decisions of the run: when the search stagnated, what it chose (continue, switch idea, fan out, stop) and why. */
export function LineageSection({ id }: { id: string }) {
  const decisions = useApi<LineageDecision[]>(`/api/lineage-decisions/${encodeURIComponent(id)}`);
  if (decisions.error) return <ErrorMessage message={decisions.error} retry={decisions.reload} />;
  if (!decisions.data) return <Loading what="the lineage decisions" />;
  if (decisions.data.length === 0)
    return (
      <Empty title="No lineage decisions yet">
        <p>
          This run has no <code>lineage_decisions.jsonl</code>. The tree search writes a decision there when the workflow's{' '}
          <code>lineage_decision</code> rule fires (the scores of the last nodes stagnate): continue, switch to another idea, fan out to sub-experiments
          or stop.
        </p>
      </Empty>
    );
  return (
    <div className="results-scroll">
      <table className="results-table">
        <caption>{decisions.data.length} lineage decisions, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Trigger</th>
            <th scope="col">Decision</th>
            <th scope="col">State</th>
            <th scope="col">Rationale</th>
          </tr>
        </thead>
        <tbody>
          {decisions.data.map((d, i) => (
            <tr key={i}>
              <td>{d.ts_iso ? when(d.ts_iso) : epochSeconds(d.ts)}</td>
              <td>{d.trigger ?? '–'}</td>
              <td>
                <strong>{d.decision?.action ?? '–'}</strong>
                {typeof d.decision?.target_idea_index === 'number' && ` → idea ${d.decision.target_idea_index}`}
                <span className="meta"> {d.executed === false ? '(not carried out)' : d.executed ? '(carried out)' : ''}</span>
              </td>
              <td>
                {[
                  d.state?.active_idea_title && `idea: ${d.state.active_idea_title}`,
                  d.state?.nodes_explored !== undefined && `${d.state.nodes_explored} nodes explored`,
                  d.state?.budget_remaining !== undefined && `${d.state.budget_remaining} left`,
                ]
                  .filter(Boolean)
                  .join('; ') || '–'}
              </td>
              <td>{d.decision?.rationale ?? '–'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
