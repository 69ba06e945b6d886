import type { PaperDraft } from './paper-draft.ts';

type Props = { draft: PaperDraft; onChange: (d: PaperDraft) => void };

/** The metadata fields an import and a metadata edit share. */
export function PaperFields({ draft, onChange }: Props) {
  const set = (key: keyof PaperDraft) => (e: { target: { value: string } }) => onChange({ ...draft, [key]: e.target.value });
  return (
    <>
      <label className="bench-wide">
        Title
        <input value={draft.title} onChange={set('title')} />
      </label>
      <label>
        License
        <input value={draft.license} onChange={set('license')} placeholder="cc-by-4.0, mit, …" list="bench-licenses" />
      </label>
      <datalist id="bench-licenses">
        {['cc-by-4.0', 'cc-by-sa-4.0', 'cc-by-nc-4.0', 'cc0', 'mit', 'apache-2.0', 'bsd-3-clause', 'arxiv non-exclusive'].map((l) => (
          <option key={l} value={l} />
        ))}
      </datalist>
      <label>
        Year
        <input value={draft.year} onChange={set('year')} inputMode="numeric" />
      </label>
      <label>
        Venue
        <input value={draft.venue} onChange={set('venue')} />
      </label>
      <label>
        Artifact URL
        <input value={draft.artifact_url} onChange={set('artifact_url')} type="url" />
      </label>
      <label className="bench-wide">
        Authors, one a line
        <textarea value={draft.authors} onChange={set('authors')} rows={3} />
      </label>
    </>
  );
}
