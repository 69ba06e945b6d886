import { type KeyboardEvent, memo, type MouseEvent, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { type ColourBy, STATUS_FILL, scoreFill, statusKind } from './colour.ts';
import type { TreeLayout } from './layout.ts';
import { neighbour } from './neighbour.ts';
import { Edges, LABEL_ROOM, LABELLED_NODES, Labels, NodeMarks } from './TreeMarks.tsx';
import { NodeFinder } from './NodeFinder.tsx';
import { TreeLegend } from './TreeLegend.tsx';
import { useZoom } from './use-zoom.ts';

type Props = {
  /** changes when another run is shown: the view is fitted to each run once */
  run: string;
  layout: TreeLayout;
  selected: string | null;
  onSelect: (id: string) => void;
};

/**
 * The search tree drawn: colour by status or score, zoom and pan, nodes picked by click, keys or
 * list. Drawn again only when its props change: a large tree is most of the page's work.
 */
export const TreeCanvas = memo(function TreeCanvas({ run, layout, selected, onSelect }: Props) {
  const svg = useRef<SVGSVGElement>(null);
  const group = useRef<SVGGElement>(null);
  const hint = useId();
  const [colourBy, setColourBy] = useState<ColourBy>('status');
  // the labels right of the deepest nodes are part of what is fitted into view
  const bounds = useMemo(() => (layout.nodes.length > LABELLED_NODES ? layout.bounds : { ...layout.bounds, x1: layout.bounds.x1 + LABEL_ROOM }), [layout]);
  const view = useZoom(svg, group, bounds);

  // fitted before the first paint: a large tree is then painted once, in place
  const fittedRun = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (fittedRun.current === run || layout.nodes.length === 0) return;
    fittedRun.current = run;
    view.fit();
  }, [run, layout, view]);

  // a node picked by key or list is brought into view (and, by key, focused); a click is where the user looks already
  const follow = useRef<'focus' | 'reveal' | null>(null);
  useEffect(() => {
    const how = follow.current;
    follow.current = null;
    const n = selected ? layout.byId.get(selected) : undefined;
    if (!how || !n) return;
    view.reveal(n.x, n.y);
    if (how === 'focus') svg.current?.querySelector<SVGElement>(`[data-id="${CSS.escape(n.id)}"]`)?.focus();
  }, [selected, layout, view]);

  const fills = useMemo(
    () => new Map(layout.nodes.map((n) => [n.id, colourBy === 'score' ? scoreFill(n.score, layout.scores) : STATUS_FILL[statusKind(n.record.status)]])),
    [layout, colourBy],
  );
  const tabbable = selected && layout.byId.has(selected) ? selected : (layout.nodes[0]?.id ?? null);

  const idOf = (e: { target: EventTarget }) => (e.target as Element).getAttribute?.('data-id');
  const onClick = (e: MouseEvent) => {
    const id = idOf(e);
    if (id) onSelect(id);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const id = idOf(e);
    const n = id ? layout.byId.get(id) : undefined;
    if (!n) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onSelect(n.id);
      return;
    }
    const next = neighbour(layout, n, e.key);
    if (!next) return;
    e.preventDefault();
    follow.current = 'focus';
    onSelect(next.id);
  };

  return (
    <div className="tree-canvas">
      <div className="toolbar tree-tools">
        <fieldset className="tree-colour">
          <legend>Colour by</legend>
          {(['status', 'score'] as const).map((c) => (
            <label key={c}>
              <input type="radio" name="tree-colour" value={c} checked={colourBy === c} onChange={() => setColourBy(c)} />
              {c}
            </label>
          ))}
        </fieldset>
        <div className="tree-zoom" role="group" aria-label="Zoom">
          <button type="button" onClick={view.zoomIn} aria-label="Zoom in">
            +
          </button>
          <button type="button" onClick={view.zoomOut} aria-label="Zoom out">
            −
          </button>
          <button type="button" onClick={view.fit}>
            Fit
          </button>
        </div>
        <NodeFinder
          layout={layout}
          onGo={(n) => {
            // the node shown already is only brought into view
            if (n.id === selected) view.reveal(n.x, n.y);
            else {
              follow.current = 'reveal';
              onSelect(n.id);
            }
          }}
        />
      </div>
      <svg ref={svg} className="tree-svg" role="group" aria-label={`Search tree, ${layout.nodes.length} nodes`} aria-describedby={hint} onClick={onClick} onKeyDown={onKeyDown}>
        <g ref={group}>
          <Edges layout={layout} />
          <Labels layout={layout} />
          <NodeMarks layout={layout} fills={fills} selected={selected} tabbable={tabbable} />
        </g>
      </svg>
      <p id={hint} className="meta">
        Drag to pan, wheel or buttons to zoom. On a node: ← parent, → first child, ↑ ↓ siblings, Home the root.
      </p>
      <TreeLegend layout={layout} colourBy={colourBy} />
    </div>
  );
});

