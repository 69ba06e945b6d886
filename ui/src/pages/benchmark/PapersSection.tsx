import { useState } from 'react';
import { postJson } from '../../api.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Empty, ErrorMessage, Loading } from '../../components/states.tsx';
import { href } from '../../route.ts';
import { useApi } from '../../use-api.ts';
import { ImportForm } from './ImportForm.tsx';
import { MetadataForm } from './MetadataForm.tsx';
import { PapersTable } from './PapersTable.tsx';
import type { Paper, PapersAnswer } from './types.ts';
import { type Outcome, OutcomeNotice } from '../../components/OutcomeNotice.tsx';

/** The paper registry: its papers, an import form, a paper's metadata form (`editing`), delete. */
export function PapersSection({ editing }: { editing: string | null }) {
  const list = useApi<PapersAnswer>('/api/bench/papers');
  const [notice, setNotice] = useState<Outcome | null>(null);
  const [deleting, setDeleting] = useState<Paper | null>(null);
  const [importing, setImporting] = useState(false);

  const done = (n: Outcome) => {
    setNotice(n);
    list.reload();
  };
  const remove = async (p: Paper) => {
    setDeleting(null);
    try {
      const answer = await postJson<{ deleted: boolean; paper_id: string }>(`/api/bench/papers/${encodeURIComponent(p.paper_id)}/delete`, {});
      done({ ok: true, text: answer.deleted ? `Deleted ${answer.paper_id}.` : `${answer.paper_id} was no longer in the registry.` });
    } catch (err) {
      done({ ok: false, text: (err as Error).message });
    }
  };

  const papers = list.data?.papers;
  const edited = editing === null ? null : (papers?.find((p) => p.paper_id === editing) ?? null);
  let body;
  if (list.error && !papers) body = <ErrorMessage message={list.error} retry={list.reload} />;
  else if (!papers) body = <Loading what="the paper registry" />;
  else if (editing !== null)
    body = edited ? (
      <MetadataForm key={edited.paper_id} paper={edited} onSaved={(p) => ((location.hash = href('benchmark', 'papers')), done({ ok: true, text: `Saved the metadata of ${p.paper_id}.` }))} />
    ) : (
      <p className="state empty">
        There is no paper “{editing}” in the registry. <a href={href('benchmark', 'papers')}>Back to the papers</a>.
      </p>
    );
  else if (papers.length === 0)
    body = (
      <Empty title="No papers in the registry">
        <p>A paper is what the benchmark reproduces: import one from its arXiv id, a DOI, an uploaded PDF or a PDF on this machine with “Import a paper” above.</p>
      </Empty>
    );
  else body = <PapersTable papers={papers} onDelete={setDeleting} />;

  return (
    <>
      <OutcomeNotice outcome={notice} />
      {editing === null && (
        <div className="bench-import">
          <button type="button" aria-expanded={importing} onClick={() => setImporting((v) => !v)}>
            {importing ? 'Close the import form' : 'Import a paper'}
          </button>
          {importing && <ImportForm onImported={(p) => done({ ok: true, text: `Imported ${p.paper_id}: ${p.title}.` })} />}
        </div>
      )}
      {list.error && papers && <ErrorMessage message={list.error} retry={list.reload} />}
      {body}
      {deleting && (
        <ConfirmDialog title={`Delete ${deleting.paper_id}?`} confirm="Delete" onConfirm={() => void remove(deleting)} onCancel={() => setDeleting(null)}>
          <p>Its manifest line and its directory are removed: the PDFs and every run of the paper. This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
