import { ErrorMessage, Loading } from '../../components/states.tsx';
import { href, type Route } from '../../route.ts';
import type { ActiveCheckpoint } from '../../types.ts';
import { useApi } from '../../use-api.ts';
import { BundlePanel } from './bundle/BundlePanel.tsx';

/** `#/results/<checkpoint>/...`: the results of a checkpoint (else the active one); so far its artifact bundle. */
export function ResultsPage({ route }: { route: Route }) {
  const active = useApi<ActiveCheckpoint>('/api/active-checkpoint');
  const [given] = route.parts;
  const run = given || active.data?.id || null;
  let body;
  if (!given && active.error) body = <ErrorMessage message={active.error} retry={active.reload} />;
  else if (!given && !active.data) body = <Loading what="the active checkpoint" />;
  else if (run === null)
    body = (
      <p className="state empty">
        No checkpoint is active: switch to one on <a href={href('experiments')}>Experiments</a>.
      </p>
    );
  else body = <BundlePanel checkpointId={run} />;
  return (
    <section className="page">
      <h1>Results</h1>
      {body}
    </section>
  );
}
