import { type FormEvent, useState } from 'react';
import { getJson, postForm, postJsonAnswer } from '../../api.ts';
import { when } from '../../format.ts';
import { LicenseBadge } from './LicenseBadge.tsx';
import { bodyOf, EMPTY_DRAFT, type PaperDraft } from './paper-draft.ts';
import { PaperFields } from './PaperFields.tsx';
import type { ImportRefusal, Paper, Preprint, SourceType, Uploaded } from './types.ts';

const SOURCE_LABELS: Record<SourceType, string> = { arxiv: 'arXiv id', doi: 'DOI', upload: 'PDF to upload', local: 'PDF path on the server' };

/**
 * Imports a paper: from an arXiv id (its metadata looked up first), a DOI (metadata only), a PDF
 * uploaded into the active checkpoint, or a PDF on the server's machine. A duplicate shows the
 * paper it clashes with and offers to overwrite it.
 */
export function ImportForm({ onImported }: { onImported: (p: Paper) => void }) {
  const [sourceType, setSourceType] = useState<SourceType>('arxiv');
  const [source, setSource] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [paperId, setPaperId] = useState('');
  const [draft, setDraft] = useState<PaperDraft>(EMPTY_DRAFT);
  const [error, setError] = useState<string | null>(null);
  const [duplicate, setDuplicate] = useState<{ existing: Paper; message: string; body: Record<string, unknown> } | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (task: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await task();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  /** The arXiv metadata, filled into the fields it has; what was typed already stays. */
  const lookUp = async (): Promise<PaperDraft> => {
    const p = await getJson<Preprint>(`/api/bench/arxiv/${encodeURIComponent(source.trim())}`);
    const filled = { ...draft, title: draft.title || p.title, license: draft.license || p.license, authors: draft.authors || p.authors.join('\n'), year: draft.year || (p.year === null ? '' : String(p.year)) };
    setDraft(filled);
    return filled;
  };

  const send = async (body: Record<string, unknown>) => {
    const answer = await postJsonAnswer<Paper | ImportRefusal>('/api/bench/papers/import', body);
    if (answer.ok) {
      setDuplicate(null);
      setSource('');
      setFile(null);
      setPaperId('');
      setDraft(EMPTY_DRAFT);
      onImported(answer.body as Paper);
      return;
    }
    const refusal = answer.body as ImportRefusal;
    if (answer.status === 409 && refusal.existing) setDuplicate({ existing: refusal.existing, message: refusal.error, body });
    else throw new Error(refusal.error);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      setDuplicate(null);
      let fields = draft;
      if (sourceType === 'arxiv' && draft.title.trim() === '' && source.trim() !== '') fields = await lookUp();
      let from = source;
      if (sourceType === 'upload') {
        if (!file) throw new Error('choose the PDF to upload');
        const form = new FormData();
        form.append('file', file);
        const saved = await postForm<Uploaded>('/api/upload', form);
        from = saved.files[0]?.path ?? file.name;
      }
      await send({ ...bodyOf(fields), source_type: sourceType, source: from, ...(paperId.trim() ? { paper_id: paperId.trim() } : {}) });
    });
  };

  return (
    <form className="card bench-form" onSubmit={submit} aria-labelledby="bench-import-title">
      <h2 id="bench-import-title">Import a paper</h2>
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      {duplicate && (
        <div className="bench-duplicate" role="alert">
          <p>{duplicate.message}</p>
          <dl className="facts">
            <div>
              <dt>title</dt>
              <dd>{duplicate.existing.title}</dd>
            </div>
            <div>
              <dt>source</dt>
              <dd>
                {duplicate.existing.source_type} {duplicate.existing.source}
              </dd>
            </div>
            <div>
              <dt>license</dt>
              <dd>
                <LicenseBadge assessment={duplicate.existing.license_assessment} />
              </dd>
            </div>
            <div>
              <dt>imported</dt>
              <dd>{when(duplicate.existing.imported_at)}</dd>
            </div>
          </dl>
          <div className="bench-buttons">
            <button type="button" className="danger" disabled={busy} onClick={() => void run(() => send({ ...duplicate.body, overwrite: true }))}>
              Overwrite {duplicate.existing.paper_id}
            </button>
            <button type="button" onClick={() => setDuplicate(null)}>
              Keep the existing paper
            </button>
          </div>
        </div>
      )}
      <div className="bench-fields">
        <label>
          Source type
          <select value={sourceType} onChange={(e) => setSourceType(e.target.value as SourceType)}>
            <option value="arxiv">arXiv id</option>
            <option value="doi">DOI</option>
            <option value="upload">upload a PDF</option>
            <option value="local">PDF on the server</option>
          </select>
        </label>
        {sourceType === 'upload' ? (
          <label className="bench-wide">
            {SOURCE_LABELS.upload}
            <input type="file" accept="application/pdf,.pdf" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
          </label>
        ) : (
          <div className="bench-wide bench-inline">
            <label>
              {SOURCE_LABELS[sourceType]}
              <input value={source} onChange={(e) => setSource(e.target.value)} placeholder={sourceType === 'arxiv' ? '2404.14193' : sourceType === 'doi' ? '10.1000/xyz123' : '/home/me/paper.pdf'} />
            </label>
            {sourceType === 'arxiv' && (
              <button type="button" disabled={busy || source.trim() === ''} onClick={() => void run(async () => void (await lookUp()))}>
                Look up
              </button>
            )}
          </div>
        )}
        <label>
          Paper id (optional)
          <input value={paperId} onChange={(e) => setPaperId(e.target.value)} placeholder="made from the source" />
        </label>
        <PaperFields draft={draft} onChange={setDraft} />
      </div>
      {sourceType === 'upload' && <p className="bench-note">The PDF is stored in the active checkpoint's uploads, then copied into the registry.</p>}
      {sourceType === 'doi' && <p className="bench-note">A DOI brings no PDF: a run needs one, imported again with overwrite from a PDF.</p>}
      <div className="bench-buttons">
        <button type="submit" disabled={busy}>
          {busy ? 'Importing…' : 'Import'}
        </button>
      </div>
    </form>
  );
}
