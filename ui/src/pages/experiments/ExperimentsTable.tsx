import { score, usd, when } from '../../format.ts';
import { href } from '../../route.ts';
import type { CheckpointEntry } from '../../types.ts';
import type { Sort, SortKey } from './sorting.ts';

type Props = {
  entries: CheckpointEntry[];
  activeId: string | null;
  sort: Sort;
  onSort: (s: Sort) => void;
  busy: boolean;
  onSwitch: (c: CheckpointEntry) => void;
  onDelete: (c: CheckpointEntry) => void;
};

const COLUMNS: { key: SortKey; label: string; numeric?: boolean }[] = [
  { key: 'id', label: 'Experiment' },
  { key: 'status', label: 'Status' },
  { key: 'node_count', label: 'Nodes', numeric: true },
  { key: 'best', label: 'Best score', numeric: true },
  { key: 'review', label: 'Review', numeric: true },
  { key: 'repro', label: 'Reproducibility', numeric: true },
  { key: 'cost', label: 'Cost', numeric: true },
  { key: 'mtime', label: 'Modified' },
];

/** The checkpoint table; below 900 px each row is a card (labels come from data-label). */
export function ExperimentsTable({ entries, activeId, sort, onSort, busy, onSwitch, onDelete }: Props) {
  return (
    <table className="experiments">
      <thead>
        <tr>
          {COLUMNS.map((c) => (
            <th key={c.key} scope="col" className={c.numeric ? 'num' : undefined} aria-sort={sort.key === c.key ? (sort.descending ? 'descending' : 'ascending') : undefined}>
              <button type="button" className="sort" onClick={() => onSort({ key: c.key, descending: sort.key === c.key ? !sort.descending : c.key === 'mtime' })}>
                {c.label}
                <span aria-hidden="true">{sort.key === c.key ? (sort.descending ? ' ▼' : ' ▲') : ''}</span>
              </button>
            </th>
          ))}
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((c) => {
          const isActive = c.id === activeId;
          const parent = c.parent_run_id;
          return (
            <tr key={c.id} className={isActive ? 'active' : undefined} data-id={c.id}>
              <td data-label="Experiment" className="experiment">
                <a href={href('results', c.id)} className="id">
                  {c.id}
                </a>
                {isActive && <span className="badge">active</span>}
                {parent && (
                  <span className="parent">
                    sub-experiment of <a href={href('results', parent)}>{parent}</a>
                  </span>
                )}
                <span className="goal">{c.goal ?? 'no goal recorded'}</span>
              </td>
              <td data-label="Status">
                <span className={`status status-${c.status}`}>{c.status}</span>
              </td>
              <td data-label="Nodes" className="num">
                {c.node_count}
              </td>
              <td data-label="Best score" className="num">
                {score(c.best_scientific_score, 3)}
              </td>
              <td data-label="Review" className="num">
                {score(c.review_score)}
              </td>
              <td data-label="Reproducibility" className="num">
                {score(c.reproducibility_score)}
              </td>
              <td data-label="Cost" className="num">
                {usd(c.cost?.usd)}
              </td>
              <td data-label="Modified">
                <time dateTime={c.mtime}>{when(c.mtime)}</time>
              </td>
              <td data-label="Actions" className="actions">
                <button type="button" disabled={isActive || busy} onClick={() => onSwitch(c)} aria-label={`Switch to ${c.id}`}>
                  {isActive ? 'Active' : 'Switch'}
                </button>
                <a className="button" href={href('results', c.id)} aria-label={`Open ${c.id}`}>
                  Open
                </a>
                <button type="button" className="danger" disabled={busy} onClick={() => onDelete(c)} aria-label={`Delete ${c.id}`}>
                  Delete
                </button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
