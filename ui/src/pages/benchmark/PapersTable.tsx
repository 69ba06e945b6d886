import { when } from '../../format.ts';
import { href } from '../../route.ts';
import { LicenseBadge } from './LicenseBadge.tsx';
import type { Paper } from './types.ts';

/** The registry's papers; below 900 px each row is a card (labels come from data-label). */
export function PapersTable({ papers, onDelete }: { papers: Paper[]; onDelete: (p: Paper) => void }) {
  return (
    <table className="bench-table bench-papers">
      <caption className="bench-count">{papers.length === 1 ? '1 paper' : `${papers.length} papers`}</caption>
      <thead>
        <tr>
          <th scope="col">Title</th>
          <th scope="col">Paper id</th>
          <th scope="col">Source</th>
          <th scope="col">License</th>
          <th scope="col">Imported</th>
          <th scope="col">
            <span className="bench-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {papers.map((p) => (
          <tr key={p.paper_id} data-id={p.paper_id}>
            <td className="bench-title" data-label="Title">
              {p.title}
              {p.authors.length > 0 && <span className="bench-authors">{p.authors.join(', ')}</span>}
            </td>
            <td data-label="Paper id">
              <code>{p.paper_id}</code>
            </td>
            <td data-label="Source" className="bench-source">
              <span className="bench-source-type">{p.source_type}</span> {p.source}
            </td>
            <td data-label="License">
              <LicenseBadge assessment={p.license_assessment} />
            </td>
            <td data-label="Imported">{when(p.imported_at)}</td>
            <td className="bench-actions">
              <a className="button" href={href('benchmark', 'papers', p.paper_id)} aria-label={`Edit ${p.paper_id}`}>
                Edit
              </a>
              <button type="button" className="danger" aria-label={`Delete ${p.paper_id}`} onClick={() => onDelete(p)}>
                Delete
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
