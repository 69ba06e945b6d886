import { NotBuilt } from '../../../components/NotBuilt.tsx';

/** The run's artifact bundle: publish.yaml, curation, preview, publishing and its record. */
export function BundlePanel({ checkpointId }: { checkpointId: string }) {
  return <NotBuilt title={`Artifact bundle of ${checkpointId}`} instead="Publish from the terminal: svc publish <checkpoint>." />;
}
