import { useState } from 'react';
import { postJson } from '../../api.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorMessage, Loading } from '../../components/states.tsx';
import { useApi } from '../../use-api.ts';
import { FewshotUpload } from './FewshotUpload.tsx';
import type { Fewshot, Rubric } from './types.ts';
import { type Outcome, OutcomeNotice } from '../../components/OutcomeNotice.tsx';

/** The few-shot examples of one rubric: list, sync from the published corpus, upload, delete. */
export function FewshotCorpus({ rubric }: { rubric: Rubric }) {
  const base = `/api/fewshot/${encodeURIComponent(rubric.id)}`;
  const corpus = useApi<Fewshot>(base);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const act = async (task: () => Promise<string>) => {
    setOutcome(null);
    try {
      setOutcome({ ok: true, text: await task() });
      corpus.reload();
    } catch (err) {
      setOutcome({ ok: false, text: err instanceof Error ? err.message : String(err) });
    }
  };
  const sync = () =>
    act(async () => {
      const r = await postJson<{ synced: string[]; skipped: string[] }>(`${base}/sync`, {});
      if (r.synced.length === 0 && r.skipped.length === 0) return `The published corpus has no examples for ${rubric.id}.`;
      return `Synced ${r.synced.length} example(s)${r.synced.length ? `: ${r.synced.join(', ')}` : ''}; ${r.skipped.length} already here.`;
    });
  const remove = (id: string) =>
    act(async () => {
      const r = await postJson<{ deleted: string[] }>(`${base}/delete`, { example: id });
      return `Deleted ${id}: ${r.deleted.join(', ')}.`;
    });
  const examples = corpus.data?.examples ?? [];
  return (
    <div className="settings-fewshot">
      <div className="toolbar">
        <button type="button" onClick={sync}>
          Sync the published corpus
        </button>
        <span className="count">{corpus.data ? `${examples.length} example${examples.length === 1 ? '' : 's'}` : ''}</span>
      </div>
      <OutcomeNotice outcome={outcome} />
      {corpus.error && <ErrorMessage message={corpus.error} retry={corpus.reload} />}
      {!corpus.error && !corpus.data && <Loading what={`the examples of ${rubric.id}`} />}
      {corpus.data?.problems.map((p) => (
        <p key={p} className="notice error">
          {p}
        </p>
      ))}
      {corpus.data && examples.length === 0 && <p className="state empty">No few-shot examples for {rubric.id} yet: sync the published corpus or upload one below.</p>}
      {examples.length > 0 && (
        <ul className="settings-examples">
          {examples.map((ex) => (
            <li key={ex.id} data-example={ex.id}>
              <strong>{ex.id}</strong>{' '}
              <span className="meta">
                {[ex.source, ex.has_text && 'excerpt', ex.has_pdf && 'PDF'].filter(Boolean).join(' · ')}
              </span>
              <span className="settings-scores">{scores(ex.record)}</span>
              <button type="button" className="danger" onClick={() => setDeleting(ex.id)} aria-label={`Delete ${ex.id}`}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      <FewshotUpload rubric={rubric} onUploaded={(text) => (setOutcome({ ok: true, text }), corpus.reload())} />
      {deleting && (
        <ConfirmDialog
          title={`Delete the example ${deleting}?`}
          confirm="Delete"
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const id = deleting;
            setDeleting(null);
            void remove(id);
          }}
        >
          <p>Its review, excerpt and PDF are removed from the {rubric.id} corpus.</p>
        </ConfirmDialog>
      )}
    </div>
  );
}

/** The numeric scores of a review record, as `name 6`. */
function scores(record: Record<string, unknown>): string {
  return Object.entries(record)
    .filter(([, v]) => typeof v === 'number')
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}
