import { ErrorMessage, Loading } from '../../../components/states.tsx';
import { useApi } from '../../../use-api.ts';
import { BundleSummary } from './BundleSummary.tsx';
import { PublishBundle } from './PublishBundle.tsx';
import { PublishRecordView } from './PublishRecordView.tsx';
import { PublishYamlEditor } from './PublishYamlEditor.tsx';
import type { EarStatus } from './types.ts';
import './bundle.css';

/**
 * The run's artifact bundle: publish.yaml, curation, what a publish would send, publishing (with
 * consent for a remote backend), the publish record and promotion.
 */
export function BundlePanel({ checkpointId }: { checkpointId: string }) {
  // another run starts afresh: no draft, consent or answer of the last one carries over
  return <RunBundle key={checkpointId} checkpointId={checkpointId} />;
}

function RunBundle({ checkpointId }: { checkpointId: string }) {
  const ear = useApi<EarStatus>(`/api/ear/${encodeURIComponent(checkpointId)}`);
  const status = ear.data;
  return (
    <section className="bundle" aria-labelledby="bundle-title">
      <h2 id="bundle-title">Artifact bundle</h2>
      <div className="bundle-grid">
        <section className="card" aria-labelledby="bundle-config-title">
          <h3 id="bundle-config-title">publish.yaml</h3>
          <PublishYamlEditor run={checkpointId} onSaved={ear.reload} />
        </section>
        <section className="card" aria-labelledby="bundle-curated-title">
          <h3 id="bundle-curated-title">Curated bundle</h3>
          {ear.error ? <ErrorMessage message={ear.error} retry={ear.reload} /> : !status ? <Loading what="the bundle" /> : <BundleSummary ear={status} onCurated={ear.reload} />}
        </section>
      </div>
      {status?.curated && (
        <section className="card" aria-labelledby="bundle-publish-title">
          <h3 id="bundle-publish-title">Publish</h3>
          {/* a new curation is a new bundle to preview */}
          <PublishBundle key={`${status.bundle_sha256}|${status.created_at}`} run={checkpointId} onPublished={ear.reload} />
        </section>
      )}
      {status?.publish_record && (
        <section className="card" aria-labelledby="bundle-record-title">
          <h3 id="bundle-record-title">Publish record</h3>
          <PublishRecordView run={checkpointId} record={status.publish_record} onPromoted={ear.reload} />
        </section>
      )}
    </section>
  );
}
