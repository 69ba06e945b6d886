import { useState } from 'react';
import { postJson } from '../../../api.ts';
import { Code } from '../../../components/Code.tsx';
import { ErrorMessage, Loading } from '../../../components/states.tsx';
import { useApi } from '../../../use-api.ts';
import { type Outcome, OutcomeNotice } from '../../../components/OutcomeNotice.tsx';
import type { PublishYamlView } from './types.ts';

/**
 * The run's ear/publish.yaml (or the default when it has none) in an editor. Save sends the text to
 * the server, which checks it and writes nothing when it is invalid; its error shows by the editor.
 */
export function PublishYamlEditor({ run, onSaved }: { run: string; onSaved: () => void }) {
  const path = `/api/ear/${encodeURIComponent(run)}/publish-yaml`;
  const view = useApi<PublishYamlView>(path);
  // the editor's text when it differs from the file's (null: the same)
  const [draft, setDraft] = useState<string | null>(null);
  // the text last saved here: the file as it now is (a reload could overwrite edits made since)
  const [saved, setSaved] = useState<string | null>(null);
  // what the editor was last given: it reports edits and is given a text again only on Revert (remounted)
  const [given, setGiven] = useState<string | null>(null);
  const [revision, setRevision] = useState(0);
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  if (view.error) return <ErrorMessage message={view.error} retry={view.reload} />;
  if (!view.data) return <Loading what="publish.yaml" />;
  const loaded = saved === null ? view.data : { exists: true, yaml: saved, error: null };
  const text = draft ?? loaded.yaml;
  const changed = draft !== null && draft !== loaded.yaml;

  const save = () => {
    setSaving(true);
    setOutcome(null);
    postJson(path, { yaml: text })
      .then(() => {
        setOutcome({ ok: true, text: 'Saved ear/publish.yaml. Curate to apply it to the bundle.' });
        setSaved(text);
        // edits made while saving stay unsaved
        setDraft((d) => (d === text ? null : d));
        onSaved();
      })
      .catch((err: unknown) => setOutcome({ ok: false, text: (err as Error).message }))
      .finally(() => setSaving(false));
  };
  const revert = () => {
    setGiven(loaded.yaml);
    setDraft(null);
    setOutcome(null);
    setRevision((r) => r + 1);
  };

  return (
    <div className="bundle-editor">
      {!loaded.exists && <p className="meta">This run has no publish.yaml yet: below is the default. Save writes it to ear/publish.yaml.</p>}
      {loaded.error && <p className="notice error">The saved publish.yaml is not valid: {loaded.error}</p>}
      <Code key={revision} fileName="publish.yaml" text={given ?? view.data.yaml} label="publish.yaml" onChange={setDraft} />
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
