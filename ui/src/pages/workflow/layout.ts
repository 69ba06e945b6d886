import dagre from '@dagrejs/dagre';
import type { FlowEdge, FlowNode } from './types.ts';

export type Point = { x: number; y: number };
export type PlacedNode = { node: FlowNode; x: number; y: number; width: number; height: number };
export type PlacedEdge = { edge: FlowEdge; points: Point[] };
export type Layout = { nodes: PlacedNode[]; edges: PlacedEdge[]; width: number; height: number };

const NODE_HEIGHT = 46;
/** About one character of the 12 px label; long stage names get wide boxes rather than cut names. */
const CHAR_WIDTH = 7.2;
const MARGIN = 16;

/** Top-to-bottom layout of one stage list; loop-back edges take part so that dagre routes them around. */
export function layoutFlow(nodes: FlowNode[], edges: FlowEdge[]): Layout {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'TB', nodesep: 24, ranksep: 44, marginx: MARGIN, marginy: MARGIN });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of nodes) {
    const chars = Math.max(n.stage.length, `${n.skill} ${n.tool}`.trim().length);
    g.setNode(n.id, { width: Math.max(140, Math.round(chars * CHAR_WIDTH) + 24), height: NODE_HEIGHT });
  }
  // a loop-back edge weighs nothing: the ranks follow depends_on
  for (const e of edges) g.setEdge(e.from, e.to, { weight: e.kind === 'loop_back_to' ? 0 : 1, minlen: 1 }, e.kind);
  dagre.layout(g);
  const placed = nodes.map((node) => {
    const { x = 0, y = 0, width, height } = g.node(node.id);
    return { node, x, y, width, height };
  });
  const routed = edges.map((edge) => ({ edge, points: g.edge({ v: edge.from, w: edge.to, name: edge.kind })?.points ?? [] }));
  const { width = 0, height = 0 } = g.graph();
  return { nodes: placed, edges: routed, width, height };
}

/** An SVG path through the points, rounded at the bends. */
export function pathOf(points: Point[]): string {
  const [first, ...rest] = points;
  if (!first) return '';
  if (rest.length === 1) return `M${first.x},${first.y}L${rest[0]?.x},${rest[0]?.y}`;
  let d = `M${first.x},${first.y}`;
  for (let i = 0; i < rest.length - 1; i++) {
    const p = rest[i] as Point;
    const next = rest[i + 1] as Point;
    d += `Q${p.x},${p.y} ${(p.x + next.x) / 2},${(p.y + next.y) / 2}`;
  }
  const last = rest[rest.length - 1] as Point;
  return `${d}L${last.x},${last.y}`;
}
