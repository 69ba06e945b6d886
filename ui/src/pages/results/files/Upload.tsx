import { fileSize } from '../../../format.ts';
import { type FormEvent, useRef, useState } from 'react';
import { postForm, postJson } from '../../../api.ts';
import type { UploadAnswer } from '../types.ts';
import type { Report } from './FileView.tsx';

type Props = { id: string; activeId: string | null; reloadActive: () => void; report: Report; uploaded: () => void };

/** Files given to the run, saved in uploads/ of the active checkpoint; another checkpoint is made active first. */
export function Upload({ id, activeId, reloadActive, report, uploaded }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const switchHere = () => {
    postJson('/api/switch-checkpoint', { id })
      .then(() => {
        report(true, `${id} is now the active checkpoint.`);
        reloadActive();
      })
      .catch((err: Error) => report(false, err.message));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const form = new FormData();
    for (const f of input.current?.files ?? []) form.append('files', f, f.name);
    setBusy(true);
    // named: another tab may have made another checkpoint active since this page read it
    postForm<UploadAnswer>(`/api/upload?id=${encodeURIComponent(id)}`, form)
      .then((a) => {
        report(true, `Uploaded ${a.files.map((f) => `${f.path} (${fileSize(f.size)})`).join(', ')}.`);
        if (input.current) input.current.value = '';
        uploaded();
      })
      .catch((err: Error) => report(false, err.message))
      .finally(() => setBusy(false));
  };
  return (
    <section className="card results-form" aria-labelledby="results-upload-title">
      <h2 id="results-upload-title">Upload</h2>
      {activeId !== id ? (
        <>
          <p>
            Uploads go into the active checkpoint, {activeId === null ? 'and none is active' : <>which is {activeId}</>}, not this one. Every node of
            the run gets a copy of them.
          </p>
          <button type="button" onClick={switchHere}>
            Make {id} active
          </button>
        </>
      ) : (
        <form onSubmit={submit}>
          <label>
            Files for uploads/ (every node of the run gets a copy)
            <input ref={input} type="file" multiple required />
          </label>
          <button type="submit" disabled={busy}>
            {busy ? 'Uploading…' : 'Upload'}
          </button>
        </form>
      )}
    </section>
  );
}
