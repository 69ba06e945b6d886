import { useState } from 'react';
import { postJson } from '../../../api.ts';
import { when } from '../../../format.ts';
import { Fact } from './parts.tsx';
import { type Outcome, OutcomeNotice } from '../../../components/OutcomeNotice.tsx';
import type { CurateAnswer, EarStatus } from './types.ts';

/**
 * What the curated bundle is (digest, counts, the settings it was curated with), or how to make
 * one; and Curate, which rebuilds ear_published/ from ear/ under publish.yaml.
 */
export function BundleSummary({ ear, onCurated }: { ear: EarStatus; onCurated: () => void }) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const curate = () => {
    setBusy(true);
    setOutcome(null);
    postJson<CurateAnswer>(`/api/ear/${encodeURIComponent(ear.run_id)}/curate`, {})
      .then((a) => {
        setOutcome(
          a.skipped
            ? { ok: false, text: `Nothing was curated: ${a.reason}.` }
            : { ok: true, text: `Curated ${a.file_count} file${a.file_count === 1 ? '' : 's'} (${a.excluded_count} left out).` },
        );
        onCurated();
      })
      .catch((err: unknown) => setOutcome({ ok: false, text: (err as Error).message }))
      .finally(() => setBusy(false));
  };
  const settings = ear.publish ?? {};
  return (
    <div className="bundle-summary">
      {ear.curated ? (
        <dl className="facts">
          <Fact name="digest" value={<code className="bundle-hash">{ear.bundle_sha256}</code>} />
          <Fact name="files" value={`${ear.file_count} kept, ${ear.excluded_count} left out`} />
          <Fact name="curated" value={ear.created_at ? when(ear.created_at) : '–'} />
          <Fact name="backend" value={String(settings.backend ?? '–')} />
          <Fact name="visibility asked" value={String(settings.visibility ?? '–')} />
          <Fact name="license" value={String(settings.license ?? 'none')} />
        </dl>
      ) : (
        <div className="state empty">
          <h3>No bundle yet</h3>
          <p>
            Curation makes the bundle: it copies the files publish.yaml allows from the run's <code>ear/</code> folder into <code>ear_published/</code>,
            leaves out secrets (<code>.env</code>, keys, <code>secrets/</code>) and writes <code>manifest.lock</code> with every file's hash.
            {ear.publish_configured ? ' Press Curate.' : ' Save publish.yaml, then press Curate.'}
          </p>
        </div>
      )}
      {ear.problems.map((p) => (
        <p key={p} className="notice error">
          {p}
        </p>
      ))}
      <div className="bundle-actions">
        <button type="button" onClick={curate} disabled={busy}>
          {busy ? 'Curating…' : ear.curated ? 'Curate again' : 'Curate'}
        </button>
      </div>
      <OutcomeNotice outcome={outcome} />
    </div>
  );
}
