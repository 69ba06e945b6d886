import { href, type Route } from '../../route.ts';
import type { ActiveCheckpoint } from '../../types.ts';
import { useApi } from '../../use-api.ts';
import { WithRun } from '../../components/WithRun.tsx';
import { CheckpointPicker } from './CheckpointPicker.tsx';
import { CheckpointResults } from './CheckpointResults.tsx';
import './results.css';

/**
 * A run's results: `#/results/<checkpoint>/<section>/...`; without a checkpoint, the active one's.
 * Files, the paper, the review, the claim gate, reproducibility, lineage and the artifact bundle.
 */
export function ResultsPage({ route }: { route: Route }) {
  const active = useApi<ActiveCheckpoint>('/api/active-checkpoint');
  const [given, section = 'files', ...rest] = route.parts;
  return (
    <section className="page results">
      <h1>Results</h1>
      <CheckpointPicker current={given || (active.data?.id ?? null)} activeId={active.data?.id ?? null} />
      <WithRun given={given} active={active} none={<>No checkpoint is active: pick one above, or switch to one on <a href={href('experiments')}>Experiments</a>.</>}>
        {/* keyed: another checkpoint starts with nothing of the last one's answers */}
        {(id) => <CheckpointResults key={id} id={id} section={section} rest={rest} activeId={active.data?.id ?? null} reloadActive={active.reload} />}
      </WithRun>
    </section>
  );
}
