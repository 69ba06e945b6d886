import { type FormEvent, useState } from 'react';
import { postJson } from '../../../api.ts';
import type { SaveAnswer } from '../types.ts';
import type { Report } from './FileView.tsx';

/** Creates an empty file at a path inside the checkpoint (folders made as needed), then opens it. */
export function NewFile({ id, report, created }: { id: string; report: Report; created: (path: string) => void }) {
  const [path, setPath] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    postJson<SaveAnswer>('/api/checkpoint/file/save', { id, path: path.trim(), content: '' })
      .then((a) => {
        report(true, `Created ${a.path}.`);
        setPath('');
        created(a.path);
      })
      .catch((err: Error) => report(false, err.message));
  };
  return (
    <form className="card results-form" onSubmit={submit} aria-labelledby="results-new-title">
      <h2 id="results-new-title">New file</h2>
      <label>
        Path inside the checkpoint
        <input value={path} onChange={(e) => setPath(e.target.value)} placeholder="paper/notes.md" required />
      </label>
      <button type="submit">Create</button>
    </form>
  );
}
