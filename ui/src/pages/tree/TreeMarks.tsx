import { memo } from 'react';
import { score as formatScore } from '../../format.ts';
import type { PlacedNode, TreeLayout } from './layout.ts';

const NODE_RADIUS = 7;
/** Trees up to this size get a text label per node; larger ones name nodes in the panel and on focus. */
export const LABELLED_NODES = 120;
const LABEL_CHARS = 24;
/** Room the longest label takes right of its node, in SVG units. */
export const LABEL_ROOM = 150;

export const nodeName = (n: PlacedNode): string => n.record.name || n.record.label || n.id;

/** What a screen reader says for a node. */
const nodeDescription = (n: PlacedNode): string => `${nodeName(n)} (${n.id}), ${n.record.status ?? 'no status'}${n.score === null ? '' : `, score ${formatScore(n.score, 3)}`}`;

/**
 * Parent-to-child links, the best path's marked; drawn once per layout, as two paths of one
 * segment per link: a thousand elements fewer for the browser to lay out than a path each.
 */
export const Edges = memo(function Edges({ layout }: { layout: TreeLayout }) {
  let plain = '';
  let best = '';
  for (const n of layout.nodes) {
    const p = n.parent;
    if (!p) continue;
    const mid = (p.x + n.x) / 2;
    const segment = `M${p.x},${p.y}C${mid},${p.y} ${mid},${n.y} ${n.x},${n.y}`;
    if (layout.bestPath.has(n.id)) best += segment;
    else plain += segment;
  }
  return (
    <g className="tree-edges">
      <path d={plain} />
      {best && <path className="best" d={best} />}
    </g>
  );
});

/** Short names beside the nodes of a small tree. */
export const Labels = memo(function Labels({ layout }: { layout: TreeLayout }) {
  if (layout.nodes.length > LABELLED_NODES) return null;
  return (
    <g className="tree-labels" aria-hidden="true">
      {layout.nodes.map((n) => {
        const name = nodeName(n);
        return (
          <text key={n.id} x={n.x + NODE_RADIUS + 4} y={n.y + 4}>
            {name.length > LABEL_CHARS ? `${name.slice(0, LABEL_CHARS - 1)}…` : name}
          </text>
        );
      })}
    </g>
  );
});

type MarksProps = { layout: TreeLayout; fills: Map<string, string>; selected: string | null; tabbable: string | null };

/**
 * Every node as a focusable circle (one tab stop for the whole tree: the selected node's), drawn
 * again only when the layout, the colours or the selection change. Clicks and keys are handled
 * once, on the tree, by the circle's data-id.
 */
export const NodeMarks = memo(function NodeMarks({ layout, fills, selected, tabbable }: MarksProps) {
  return (
    <g className="tree-nodes">
      {layout.nodes.map((node) => (
        <circle
          key={node.id}
          data-id={node.id}
          className={`tree-node${layout.bestPath.has(node.id) ? ' best' : ''}${node.id === selected ? ' selected' : ''}`}
          cx={node.x}
          cy={node.y}
          r={NODE_RADIUS}
          fill={fills.get(node.id)}
          role="button"
          tabIndex={node.id === tabbable ? 0 : -1}
          aria-pressed={node.id === selected}
          aria-label={nodeDescription(node)}
        />
      ))}
    </g>
  );
});
