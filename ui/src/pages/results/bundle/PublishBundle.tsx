import { useId, useState } from 'react';
import { postJson } from '../../../api.ts';
import { ErrorMessage, Loading } from '../../../components/states.tsx';
import { fileSize } from '../../../format.ts';
import { useApi } from '../../../use-api.ts';
import { BundleFiles } from './BundleFiles.tsx';
import { Fact } from './parts.tsx';
import { type Outcome, OutcomeNotice } from '../../../components/OutcomeNotice.tsx';
import type { PublishPreview, PublishSettings, RecordAnswer } from './types.ts';

/**
 * What a publish would send (the server's preview: backend, files, sizes, digest) and Publish.
 * A remote backend gets the bundle off this machine: the button waits for a consent naming it.
 */
export function PublishBundle({ run, onPublished }: { run: string; onPublished: () => void }) {
  const settings = useApi<PublishSettings>('/api/publish/settings');
  // '' is publish.yaml's backend (the server decides)
  const [backend, setBackend] = useState('');
  const id = useId();
  return (
    <>
      <div className="toolbar">
        <label htmlFor={`${id}-backend`}>
          Backend
          <select id={`${id}-backend`} value={backend} onChange={(e) => setBackend(e.target.value)}>
            <option value="">as publish.yaml says</option>
            {(settings.data?.backends ?? []).map((b) => (
              <option key={b} value={b}>
                {b}
              </option>
            ))}
          </select>
        </label>
      </div>
      {settings.error && <ErrorMessage message={settings.error} retry={settings.reload} />}
      {/* a new backend is a new preview, and any consent given was for the old one */}
      <Preview key={backend} run={run} backend={backend} onPublished={onPublished} />
    </>
  );
}

function Preview({ run, backend, onPublished }: { run: string; backend: string; onPublished: () => void }) {
  const base = `/api/publish/${encodeURIComponent(run)}`;
  const preview = useApi<PublishPreview>(`${base}/preview${backend ? `?backend=${encodeURIComponent(backend)}` : ''}`);
  const [consent, setConsent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const consentId = useId();
  if (preview.error) return <ErrorMessage message={preview.error} retry={preview.reload} />;
  if (!preview.data) return <Loading what="the publish preview" />;
  const p = preview.data;
  const needsConsent = p.remote && !p.dry_run;

  const publish = (dryRun: boolean) => {
    setBusy(true);
    setOutcome(null);
    const body = { ...(backend ? { backend } : {}), ...(dryRun ? { dry_run: true } : needsConsent ? { consent: true } : {}) };
    postJson<RecordAnswer>(base, body)
      .then(({ record }) => {
        setOutcome({ ok: true, text: record.dry_run ? `Dry run: nothing was sent; ${p.backend} would give ${record.ref}.` : `Published to ${p.backend}: ${record.ref} (${record.visibility}).` });
        setConsent(false);
        preview.reload();
        onPublished();
      })
      .catch((err: unknown) => setOutcome({ ok: false, text: (err as Error).message }))
      .finally(() => setBusy(false));
  };

  return (
    <div className="bundle-preview">
      <dl className="facts">
        <Fact name="backend" value={`${p.backend} (${p.remote ? 'sends the bundle off this machine' : 'a tarball inside the checkpoint'})`} />
        <Fact name="visibility" value={`staged at first${p.requested_visibility === 'staged' ? '' : ` (publish.yaml asks for ${p.requested_visibility}: promote it after)`}`} />
        <Fact name="files" value={`${p.file_count}, ${fileSize(p.total_size)} (${p.excluded_count} left out)`} />
        <Fact name="digest" value={<code className="bundle-hash">{p.bundle_sha256}</code>} />
      </dl>
      {p.dry_run && <p className="notice bundle-note">SVC_PUBLISH_DRYRUN is set on the server: a publish sends nothing and only records what it would do.</p>}
      {p.already_published && <p className="notice bundle-note">This run was published before: publishing again replaces its publish record.</p>}
      <BundleFiles files={p.files} />
      {needsConsent && (
        <p className="bundle-consent">
          <input id={consentId} type="checkbox" checked={consent} onChange={(e) => setConsent(e.target.checked)} />
          <label htmlFor={consentId}>
            Upload these {p.file_count} files ({fileSize(p.total_size)}, digest {p.bundle_sha256.slice(0, 12)}…) to {p.backend}. They leave this machine.
          </label>
        </p>
      )}
      <div className="bundle-actions">
        <button type="button" onClick={() => publish(false)} disabled={busy || (needsConsent && !consent)}>
          {busy ? 'Publishing…' : `Publish to ${p.backend}`}
        </button>
        {!p.dry_run && (
          <button type="button" onClick={() => publish(true)} disabled={busy}>
            Dry run
          </button>
        )}
      </div>
      <OutcomeNotice outcome={outcome} />
    </div>
  );
}
