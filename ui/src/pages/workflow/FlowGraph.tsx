import { type KeyboardEvent, useId, useMemo } from 'react';
import { layoutFlow, pathOf } from './layout.ts';
import type { FlowEdge, FlowNode } from './types.ts';

type Props = {
  title: string;
  nodes: FlowNode[];
  edges: FlowEdge[];
  /** the enabled state each stage will have once saved (drafts included) */
  enabled: (node: FlowNode) => boolean;
  selected: string | null;
  onSelect: (id: string) => void;
};

/** One stage list as a DAG: boxes for stages, solid arrows for depends_on, dashed ones for loop_back_to. */
export function FlowGraph({ title, nodes, edges, enabled, selected, onSelect }: Props) {
  const base = useId();
  const layout = useMemo(() => layoutFlow(nodes, edges), [nodes, edges]);
  const onKey = (e: KeyboardEvent, id: string) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
    onSelect(id);
  };
  return (
    <figure className="workflow-graph">
      <figcaption>{title}</figcaption>
      <svg
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        width={layout.width}
        // shrinks to the column down to 3/5 of its size, so the whole pipeline fits a 1280 px window;
        // below that the figure scrolls, labels stay legible
        style={{ width: `max(${Math.round(layout.width * 0.6)}px, min(${Math.round(layout.width)}px, 100%))` }}
        role="group"
        aria-label={`${title}: ${nodes.length} stages`}
      >
        <defs>
          <marker id={`${base}-dep`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0,0L10,5L0,10z" className="workflow-arrow" />
          </marker>
          <marker id={`${base}-loop`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0,0L10,5L0,10z" className="workflow-arrow-loop" />
          </marker>
        </defs>
        {layout.edges.map(({ edge, points }) => {
          const loop = edge.kind === 'loop_back_to';
          return (
            <path
              key={`${edge.kind} ${edge.from} ${edge.to}`}
              className={loop ? 'workflow-edge workflow-edge-loop' : 'workflow-edge'}
              data-from={edge.from}
              data-to={edge.to}
              d={pathOf(points)}
              strokeDasharray={loop ? '6 4' : undefined}
              markerEnd={`url(#${base}-${loop ? 'loop' : 'dep'})`}
            />
          );
        })}
        {layout.nodes.map(({ node, x, y, width, height }) => {
          const on = enabled(node);
          const label = [node.stage, node.skill && `${node.skill}${node.tool ? ` · ${node.tool}` : ''}`, on ? '' : 'disabled'].filter(Boolean).join(', ');
          return (
            <g
              key={node.id}
              className={`workflow-node${on ? '' : ' off'}${selected === node.id ? ' selected' : ''}`}
              data-id={node.id}
              transform={`translate(${x - width / 2},${y - height / 2})`}
              tabIndex={0}
              role="button"
              aria-pressed={selected === node.id}
              aria-label={label}
              onClick={() => onSelect(node.id)}
              onKeyDown={(e) => onKey(e, node.id)}
            >
              <rect width={width} height={height} rx="6" strokeDasharray={on ? undefined : '3 3'} />
              <text x={width / 2} y="19" textAnchor="middle" className="name">
                {node.stage}
              </text>
              <text x={width / 2} y="35" textAnchor="middle" className="what">
                {node.skill ? `${node.skill}${node.tool ? ` · ${node.tool}` : ''}` : 'built into the search'}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

/** What the lines and boxes of the graphs mean. */
export function FlowLegend() {
  return (
    <ul className="workflow-legend" aria-label="Legend">
      <li>
        <svg width="40" height="10" aria-hidden="true">
          <line x1="0" y1="5" x2="40" y2="5" className="workflow-edge" />
        </svg>
        depends on (runs after)
      </li>
      <li>
        <svg width="40" height="10" aria-hidden="true">
          <line x1="0" y1="5" x2="40" y2="5" className="workflow-edge workflow-edge-loop" strokeDasharray="6 4" />
        </svg>
        loops back to (runs again when the score is low)
      </li>
      <li>
        <svg width="40" height="16" aria-hidden="true">
          <rect x="1" y="1" width="38" height="14" rx="3" className="workflow-legend-off" strokeDasharray="3 3" />
        </svg>
        disabled stage
      </li>
    </ul>
  );
}
