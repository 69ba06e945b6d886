import { type FormEvent, useId, useState } from 'react';
import { postJson } from '../../api.ts';
import type { Rubric } from './types.ts';

type Props = { rubric: Rubric; onUploaded: (text: string) => void };

/** Add one example: an id, the review as JSON, and optionally an excerpt of the paper and its PDF. */
export function FewshotUpload({ rubric, onUploaded }: Props) {
  const base = useId();
  const [id, setId] = useState('');
  const [review, setReview] = useState('');
  const [excerpt, setExcerpt] = useState('');
  const [pdf, setPdf] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    setBusy(true);
    setError(null);
    try {
      // the review goes as typed: the server says what is wrong with it
      const body = { id, review_json: review, ...(excerpt ? { text: excerpt } : {}), ...(pdf ? { pdf_base64: await base64(pdf) } : {}) };
      const r = await postJson<{ id: string; files: string[] }>(`/api/fewshot/${encodeURIComponent(rubric.id)}/upload`, body);
      setId('');
      setReview('');
      setExcerpt('');
      setPdf(null);
      form.reset();
      onUploaded(`Uploaded ${r.id}: ${r.files.join(', ')}.`);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  const sample = JSON.stringify(Object.fromEntries(rubric.dimensions.slice(0, 2).map((d) => [d, 5])));
  return (
    <form className="settings-upload" onSubmit={submit} aria-labelledby={`${base}-title`}>
      <h3 id={`${base}-title`}>Upload an example</h3>
      <label htmlFor={`${base}-id`}>Example id</label>
      <input id={`${base}-id`} value={id} onChange={(e) => setId(e.target.value)} placeholder="paper_2024_example" required />
      <label htmlFor={`${base}-review`}>Review (JSON of the rubric's scores, text sections and decision)</label>
      <textarea id={`${base}-review`} rows={5} value={review} onChange={(e) => setReview(e.target.value)} placeholder={sample} required />
      <label htmlFor={`${base}-excerpt`}>Paper excerpt (optional)</label>
      <textarea id={`${base}-excerpt`} rows={3} value={excerpt} onChange={(e) => setExcerpt(e.target.value)} />
      <label htmlFor={`${base}-pdf`}>Paper PDF (optional)</label>
      <input id={`${base}-pdf`} type="file" accept="application/pdf,.pdf" onChange={(e) => setPdf(e.target.files?.[0] ?? null)} />
      <div>
        <button type="submit" disabled={busy}>
          {busy ? 'Uploading…' : 'Upload example'}
        </button>
      </div>
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

/** A file's bytes as base64 (the upload is JSON). */
async function base64(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
