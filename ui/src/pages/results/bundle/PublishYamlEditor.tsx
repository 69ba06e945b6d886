import { useState } from 'react';
import { postJson } from '../../../api.ts';
import { Code } from '../../../components/Code.tsx';
import { ErrorMessage, Loading } from '../../../components/states.tsx';
import { useApi } from '../../../use-api.ts';
import { type Outcome, OutcomeNotice } from './parts.tsx';
import type { PublishYamlView } from './types.ts';

/**
 * The run's ear/publish.yaml (or the default when it has none) in an editor. Save sends the text to
 * the server, which checks it and writes nothing when it is invalid; its error shows by the editor.
 */
export function PublishYamlEditor({ run, onSaved }: { run: string; onSaved: () => void }) {
  const path = `/api/ear/${encodeURIComponent(run)}/publish-yaml`;
  const view = useApi<PublishYamlView>(path);
  // null: the text as loaded; the editor is remounted (revision) to show it again
  const [draft, setDraft] = useState<string | null>(null);
  const [revision, setRevision] = useState(0);
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  if (view.error) return <ErrorMessage message={view.error} retry={view.reload} />;
  if (!view.data) return <Loading what="publish.yaml" />;
  const loaded = view.data;
  const text = draft ?? loaded.yaml;
  const changed = draft !== null && draft !== loaded.yaml;

  const save = () => {
    setSaving(true);
    setOutcome(null);
    postJson(path, { yaml: text })
      .then(() => {
        setOutcome({ ok: true, text: 'Saved ear/publish.yaml. Curate to apply it to the bundle.' });
        setDraft(null);
        view.reload();
        onSaved();
      })
      .catch((err: unknown) => setOutcome({ ok: false, text: (err as Error).message }))
      .finally(() => setSaving(false));
  };
  const revert = () => {
    setDraft(null);
    setOutcome(null);
    setRevision((r) => r + 1);
  };

  return (
    <div className="bundle-editor">
      {!loaded.exists && <p className="meta">This run has no publish.yaml yet: below is the default. Save writes it to ear/publish.yaml.</p>}
      {loaded.error && <p className="notice error">The saved publish.yaml is not valid: {loaded.error}</p>}
      <Code key={revision} fileName="publish.yaml" text={loaded.yaml} label="publish.yaml" onChange={setDraft} />
      <div className="bundle-actions">
        <button type="button" onClick={save} disabled={saving || (loaded.exists && !changed)}>
          {saving ? 'Saving…' : 'Save'}
        </button>
        <button type="button" onClick={revert} disabled={!changed}>
          Revert
        </button>
        {changed && <span className="meta">Unsaved changes</span>}
      </div>
      <OutcomeNotice outcome={outcome} />
    </div>
  );
}
