import { ErrorMessage } from '../../components/states.tsx';
import { href, type Route } from '../../route.ts';
import type { ActiveCheckpoint, CheckpointSummary } from '../../types.ts';
import { useApi } from '../../use-api.ts';
import { WithRun } from '../../components/WithRun.tsx';
import { MemoryOfNode } from './MemoryOfNode.tsx';
import { treeSummaryPath } from '../tree/paths.ts';

/**
 * The memory inspector: `#/memory/<run>/<node>`; without a run, the active checkpoint's. A node
 * picker, the node's entries, the memory access log, and whether the backend answers.
 */
export function MemoryPage({ route }: { route: Route }) {
  const active = useApi<ActiveCheckpoint>('/api/active-checkpoint');
  const [givenRun, node = ''] = route.parts;
  return (
    <section className="page">
      <h1>Memory</h1>
      <WithRun given={givenRun} active={active} none={<>No checkpoint is active: switch to one on <a href={href('experiments')}>Experiments</a>.</>}>
        {(run) => <Inspector run={run} node={node} />}
      </WithRun>
    </section>
  );
}

function Inspector({ run, node }: { run: string; node: string }) {
  const summary = useApi<CheckpointSummary>(treeSummaryPath(run));
  const nodes = summary.data?.nodes_list ?? [];
  return (
    <>
      <div className="toolbar">
        <label>
          Node of {run}
          <select value={node} onChange={(e) => (location.hash = href('memory', run, ...(e.target.value ? [e.target.value] : [])))}>
            <option value="">every node</option>
            {nodes.map((n) => (
              <option key={n.id} value={n.id}>
                {n.id}
                {n.name ? ` · ${n.name}` : ''}
              </option>
            ))}
          </select>
        </label>
      </div>
      {summary.error && <ErrorMessage message={summary.error} retry={summary.reload} />}
      <MemoryOfNode run={run} node={node} />
    </>
  );
}
