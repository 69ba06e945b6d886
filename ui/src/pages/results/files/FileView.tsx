import { fileSize } from '../../../format.ts';
import { useState } from 'react';
import { postJson } from '../../../api.ts';
import { Code } from '../../../components/Code.tsx';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { ErrorMessage, Loading } from '../../../components/states.tsx';
import { useApi } from '../../../use-api.ts';
import { PdfPreview } from '../paper/PdfPreview.tsx';
import type { FileContent, SaveAnswer } from '../types.ts';
import { fileApi, rawFileUrl } from '../urls.ts';

export type Report = (ok: boolean, text: string) => void;

const IMAGE = /\.(png|jpe?g|gif|webp|bmp|ico|svg)$/i;
const PDF = /\.pdf$/i;

type Props = { id: string; path: string; size: number | undefined; report: Report; saved: () => void; deleted: () => void };

/** One file of the checkpoint: text to read, edit and save; an image or a PDF shown; other bytes to download. Any file can be deleted. */
export function FileView({ id, path, size, report, saved, deleted }: Props) {
  const [asking, setAsking] = useState(false);
  const name = path.split('/').pop() ?? path;
  const remove = () => {
    setAsking(false);
    postJson<{ ok: true; path: string }>('/api/checkpoint/file/delete', { id, path })
      .then((a) => {
        report(true, `Deleted ${a.path}.`);
        deleted();
      })
      .catch((err: Error) => report(false, err.message));
  };
  return (
    <section className="results-file" aria-labelledby="results-file-title">
      <div className="results-file-head">
        <h2 id="results-file-title">{path}</h2>
        {size !== undefined && <span className="meta">{fileSize(size)}</span>}
        <a href={rawFileUrl(id, path)} download={name}>
          Download
        </a>
        <button type="button" className="danger" onClick={() => setAsking(true)}>
          Delete
        </button>
      </div>
      {IMAGE.test(path) ? (
        <img className="results-image" src={rawFileUrl(id, path)} alt={`The image ${path}`} />
      ) : PDF.test(path) ? (
        <PdfPreview id={id} path={path} />
      ) : (
        <Contents id={id} path={path} report={report} saved={saved} />
      )}
      {asking && (
        <ConfirmDialog title={`Delete ${path}?`} confirm="Delete" onConfirm={remove} onCancel={() => setAsking(false)}>
          <p>The file is removed from the checkpoint on disk; this cannot be undone.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

/** A file read through the API: text in the editor, anything else named as bytes. */
function Contents({ id, path, report, saved }: { id: string; path: string; report: Report; saved: () => void }) {
  const file = useApi<FileContent>(fileApi(id, path));
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  if (file.error) return <ErrorMessage message={file.error} retry={file.reload} />;
  if (!file.data) return <Loading what={path} />;
  if (file.data.encoding !== 'utf8') return <p className="state">Binary, {file.data.size} bytes: download it to open it.</p>;
  const text = file.data.content;
  const dirty = draft !== null && draft !== text;
  const save = () => {
    if (draft === null) return;
    setSaving(true);
    postJson<SaveAnswer>('/api/checkpoint/file/save', { id, path, content: draft })
      .then((a) => {
        report(true, `Saved ${a.path} (${fileSize(a.size)}).`);
        file.reload();
        saved();
      })
      .catch((err: Error) => report(false, err.message))
      .finally(() => setSaving(false));
  };
  return (
    <>
      <div className="toolbar results-edit">
        <button type="button" onClick={save} disabled={!dirty || saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
        <button type="button" onClick={() => setDraft(null)} disabled={!dirty || saving}>
          Revert
        </button>
        <span className="meta">{dirty ? 'Unsaved changes.' : 'Edit the text to change the file.'}</span>
      </div>
      <Code fileName={path} text={draft ?? text} label={`Contents of ${path}`} onChange={setDraft} />
    </>
  );
}
