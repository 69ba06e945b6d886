import { score } from '../../format.ts';
import { type ColourBy, NO_SCORE_FILL, SCALE_GRADIENT, STATUS_FILL, type StatusKind, statusKind } from './colour.ts';
import type { TreeLayout } from './layout.ts';

/** What the fills and marks of the tree mean, with how many nodes have each status. */
export function TreeLegend({ layout, colourBy }: { layout: TreeLayout; colourBy: ColourBy }) {
  const counts = new Map<StatusKind, number>();
  for (const n of layout.nodes) {
    const k = statusKind(n.record.status);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const unscored = layout.nodes.filter((n) => n.score === null).length;
  return (
    <ul className="tree-legend" aria-label="Legend">
      {colourBy === 'status' ? (
        (Object.keys(STATUS_FILL) as StatusKind[])
          .filter((k) => counts.has(k))
          .map((k) => (
            <li key={k}>
              <span className="tree-swatch" style={{ background: STATUS_FILL[k] }} />
              {k} {counts.get(k)}
            </li>
          ))
      ) : (
        <>
          <li>
            {layout.scores ? (
              <>
                score {score(layout.scores.min, 3)}
                <span className="tree-gradient" style={{ background: SCALE_GRADIENT }} />
                {score(layout.scores.max, 3)}
              </>
            ) : (
              'no node has a score yet'
            )}
          </li>
          {unscored > 0 && (
            <li>
              <span className="tree-swatch" style={{ background: NO_SCORE_FILL }} />
              no score {unscored}
            </li>
          )}
        </>
      )}
      {layout.bestPath.size > 0 && (
        <li>
          <span className="tree-swatch best" />
          path to the best node
        </li>
      )}
      <li>
        <span className="tree-swatch selected" />
        selected
      </li>
    </ul>
  );
}
