import type { RunState } from './types.ts';

/** The run's numbers: phase, nodes, model, cost and best node, as /state gives them. */
export function RunFacts({ state }: { state: RunState }) {
  const n = state.nodes;
  const best = state.best;
  const rows: [string, string][] = [
    ['checkpoint', state.checkpoint_id ?? 'none selected'],
    ['status', state.status_label],
    ['phase', state.phase ?? '–'],
    ['nodes', n ? `${n.total} total, ${n.completed} completed, ${n.running} running, ${n.failed} failed, ${n.pending} pending` : '–'],
    ['model', state.model ? `${state.model.provider} / ${state.model.model}` : '–'],
    ['cost', state.cost ? `$${state.cost.usd.toFixed(4)}, ${state.cost.tokens} tokens, ${state.cost.calls} calls` : 'no model calls recorded'],
    ['best node', best ? `${best.id} (score ${best.score}${best.metric ? `, ${best.metric} = ${best.value ?? '–'}` : ''})` : '–'],
  ];
  return (
    <section className="card" aria-labelledby="run-title">
      <h2 id="run-title">Run</h2>
      <dl className="facts">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
