import { useMemo, useState } from 'react';
import { postJson } from '../../api.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Empty, ErrorMessage, Loading } from '../../components/states.tsx';
import { href } from '../../route.ts';
import type { ActiveCheckpoint, CheckpointEntry, DeleteAnswer } from '../../types.ts';
import { useApi } from '../../use-api.ts';
import { ExperimentsTable } from './ExperimentsTable.tsx';
import { filterEntries, type Sort, sortEntries } from './sorting.ts';
import { type Outcome, OutcomeNotice } from '../../components/OutcomeNotice.tsx';

/** Rows drawn at first and added per "Show more": a thousand rows take the browser seconds to lay out. */
const ROWS_STEP = 50;

/** How often the list is read again: runs start, end and change status meanwhile. */
const REFRESH_MS = 10_000;

/** Every checkpoint of the workspace: sort, filter, switch the active one, open, delete. */
export function ExperimentsPage() {
  const list = useApi<CheckpointEntry[]>('/api/checkpoints', { every: REFRESH_MS });
  const active = useApi<ActiveCheckpoint>('/api/active-checkpoint');
  const [text, setText] = useState('');
  const [status, setStatus] = useState('');
  const [sort, setSort] = useState<Sort>({ key: 'mtime', descending: true });
  const [notice, setNotice] = useState<Outcome | null>(null);
  const [deleting, setDeleting] = useState<CheckpointEntry | null>(null);
  const [busy, setBusy] = useState(false);
  const [rows, setRows] = useState(ROWS_STEP);

  const statuses = useMemo(() => [...new Set((list.data ?? []).map((c) => c.status))].sort(), [list.data]);
  const shown = useMemo(() => sortEntries(filterEntries(list.data ?? [], text, status), sort), [list.data, text, status, sort]);

  const act = async (task: () => Promise<string>) => {
    setBusy(true);
    try {
      setNotice({ ok: true, text: await task() });
    } catch (err) {
      setNotice({ ok: false, text: (err as Error).message });
    } finally {
      setBusy(false);
      list.reload();
      active.reload();
    }
  };
  const switchTo = (c: CheckpointEntry) =>
    void act(async () => {
      const now = await postJson<ActiveCheckpoint>('/api/switch-checkpoint', { id: c.id });
      return `Active checkpoint: ${now.id}`;
    });
  const remove = (c: CheckpointEntry) => {
    setDeleting(null);
    void act(async () => {
      const answer = await postJson<DeleteAnswer>('/api/delete-checkpoint', { id: c.id });
      return [`Deleted ${answer.deleted}.`, answer.memory?.warning].filter(Boolean).join(' ');
    });
  };

  let body;
  if (list.error && !list.data) body = <ErrorMessage message={list.error} retry={list.reload} />;
  else if (!list.data) body = <Loading what="experiments" />;
  else if (list.data.length === 0)
    body = (
      <Empty title="No experiments yet">
        <p>
          An experiment is a run of the tree search on a research goal. Start one from the terminal in this workspace with <code>svc run experiment.md</code> (a Markdown file with a
          <code> ## Research Goal</code> section); it appears here as it starts.
        </p>
        <p>
          <a href={href('new')}>New experiment</a> will start one from here.
        </p>
      </Empty>
    );
  else
    body = (
      <>
        <div className="toolbar" role="search">
          <label>
            Filter
            <input type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="id or goal" />
          </label>
          <label>
            Status
            <select value={status} onChange={(e) => setStatus(e.target.value)}>
              <option value="">any</option>
              {statuses.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <span className="count" aria-live="polite">
            {shown.length === list.data.length ? `${list.data.length} experiments` : `${shown.length} of ${list.data.length} experiments`}
          </span>
        </div>
        {shown.length === 0 ? (
          <p className="state empty">No experiment matches the filter.</p>
        ) : (
          <ExperimentsTable entries={shown.slice(0, rows)} activeId={active.data?.id ?? null} sort={sort} onSort={setSort} busy={busy} onSwitch={switchTo} onDelete={setDeleting} />
        )}
        {shown.length > rows && (
          <p className="more">
            <button type="button" onClick={() => setRows((r) => r + ROWS_STEP)}>
              Show {Math.min(ROWS_STEP, shown.length - rows)} more of {shown.length - rows} not shown
            </button>
          </p>
        )}
      </>
    );

  return (
    <section className="page">
      <h1>Experiments</h1>
      <OutcomeNotice outcome={notice} />
      {list.error && list.data && <ErrorMessage message={list.error} retry={list.reload} />}
      {body}
      {deleting && (
        <ConfirmDialog title={`Delete ${deleting.id}?`} confirm="Delete" onConfirm={() => remove(deleting)} onCancel={() => setDeleting(null)}>
          <p>The checkpoint directory, its experiments directory and its memory agent are removed. This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
