import { type FormEvent, useState } from 'react';
import { postJson } from '../../api.ts';
import { href } from '../../route.ts';
import { LicenseBadge } from './LicenseBadge.tsx';
import { bodyOf, draftOf } from './paper-draft.ts';
import { PaperFields } from './PaperFields.tsx';
import { SOURCE_TYPES, type Paper, type SourceType } from './types.ts';

/** A paper's metadata, edited; paper_id is shown but cannot change (the API refuses it). */
export function MetadataForm({ paper, onSaved }: { paper: Paper; onSaved: (p: Paper) => void }) {
  const [draft, setDraft] = useState(() => draftOf(paper));
  const [sourceType, setSourceType] = useState<SourceType>(paper.source_type);
  const [source, setSource] = useState(paper.source);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      onSaved(await postJson<Paper>(`/api/bench/papers/${encodeURIComponent(paper.paper_id)}/metadata`, { ...bodyOf(draft), source_type: sourceType, source }));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card bench-form" onSubmit={(e) => void save(e)} aria-labelledby="bench-edit-title">
      <h2 id="bench-edit-title">Metadata of {paper.paper_id}</h2>
      <p className="meta">
        License now: <LicenseBadge assessment={paper.license_assessment} /> {paper.license_assessment.note}
      </p>
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      <div className="bench-fields">
        <label>
          Paper id
          <input value={paper.paper_id} readOnly aria-describedby="bench-id-note" />
          <span id="bench-id-note" className="bench-note">
            fixed: delete and import again to change it
          </span>
        </label>
        <label>
          Source type
          <select value={sourceType} onChange={(e) => setSourceType(e.target.value as SourceType)}>
            {SOURCE_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <label className="bench-wide">
          Source
          <input value={source} onChange={(e) => setSource(e.target.value)} />
        </label>
        <PaperFields draft={draft} onChange={setDraft} />
      </div>
      <div className="bench-buttons">
        <button type="submit" disabled={busy}>
          Save
        </button>
        <a className="button" href={href('benchmark', 'papers')}>
          Cancel
        </a>
      </div>
    </form>
  );
}
