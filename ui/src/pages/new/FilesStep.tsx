import { type ChangeEvent, useState } from 'react';
import { postForm, postJson } from '../../api.ts';
import { fileSize } from '../../format.ts';
import type { Draft, DraftChange } from './draft.ts';
import { Field } from './Field.tsx';
import type { UploadAnswer } from './types.ts';

type Props = { draft: Draft; onChange: (change: DraftChange) => void };

/**
 * Files the run is given (data, code, papers): uploaded now under the draft's staging id; the
 * launch puts them in the run's uploads/, from where every experiment gets a copy.
 */
export function FilesStep({ draft, onChange }: Props) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const upload = async (e: ChangeEvent<HTMLInputElement>) => {
    const chosen = [...(e.target.files ?? [])];
    e.target.value = '';
    if (chosen.length === 0) return;
    const form = new FormData();
    for (const f of chosen) form.append('file', f, f.name);
    setBusy(true);
    setError(null);
    try {
      const answer = await postForm<UploadAnswer>(`/api/upload?staging=${encodeURIComponent(draft.staging)}`, form);
      const names = new Set(answer.files.map((f) => f.name));
      // from the list as it is now: a file removed during the upload stays removed
      onChange((d) => ({ files: [...d.files.filter((f) => !names.has(f.name)), ...answer.files.map((f) => ({ name: f.name, size: f.size }))] }));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const remove = async (name: string) => {
    setError(null);
    try {
      await postJson('/api/upload/delete', { name, staging: draft.staging });
      onChange((d) => ({ files: d.files.filter((f) => f.name !== name) }));
    } catch (err) {
      setError((err as Error).message);
    }
  };
  return (
    <div className="new-form">
      <Field label="Add files" help={busy ? 'Uploading…' : 'A file of the same name replaces the earlier one.'}>
        {(control) => <input {...control} type="file" multiple disabled={busy} onChange={(e) => void upload(e)} />}
      </Field>
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      {draft.files.length === 0 ? (
        <p className="meta">No files yet: the run starts with the goal alone.</p>
      ) : (
        <ul className="new-files" aria-label="Provided files">
          {draft.files.map((f) => (
            <li key={f.name}>
              <span className="new-file-name">{f.name}</span>
              <span className="meta">{fileSize(f.size)}</span>
              <button type="button" className="danger" onClick={() => void remove(f.name)} aria-label={`Remove ${f.name}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
