import { type HierarchyPointNode, stratify, tree } from 'd3-hierarchy';
import type { NodeOutline } from './types.ts';

/** A node where it is drawn: `x` across (depth), `y` down (siblings). */
export type PlacedNode = {
  id: string;
  record: NodeOutline;
  x: number;
  y: number;
  parent: PlacedNode | null;
  children: PlacedNode[];
  score: number | null;
};

export type TreeLayout = {
  /** in breadth-first order from the root(s) */
  nodes: PlacedNode[];
  byId: Map<string, PlacedNode>;
  /** the root-to-best-node path, by node id */
  bestPath: Set<string>;
  bounds: { x0: number; y0: number; x1: number; y1: number };
  scores: { min: number; max: number } | null;
};

/** Distance between depths, and between neighbouring nodes of one depth, in SVG units. */
const DEPTH_GAP = 150;
const SIBLING_GAP = 22;

/** The id of the invisible node above several roots (or above nodes whose parent is missing). */
const FOREST = '\u0000forest';

function scoreOf(record: NodeOutline): number | null {
  const s = record.metrics?._scientific_score;
  return typeof s === 'number' && Number.isFinite(s) ? s : null;
}

/**
 * The tidy tree (Reingold–Tilford, d3-hierarchy) of a run's nodes, laid out left to right. Nodes
 * whose parent is not in the list are drawn as roots; a cycle in parent links throws.
 */
export function layoutTree(records: NodeOutline[], bestId: string | null): TreeLayout {
  const ids = new Set(records.map((r) => r.id));
  const rootless = records.filter((r) => !r.parent_id || !ids.has(r.parent_id)).length;
  const parentOf = (r: NodeOutline) => (r.parent_id && ids.has(r.parent_id) ? r.parent_id : rootless > 1 ? FOREST : null);
  const rows: NodeOutline[] = rootless > 1 ? [{ id: FOREST }, ...records] : records;
  const root = stratify<NodeOutline>()
    .id((r) => r.id)
    .parentId((r) => (r.id === FOREST ? null : parentOf(r)))(rows);
  const laid = tree<NodeOutline>().nodeSize([SIBLING_GAP, DEPTH_GAP])(root);

  const nodes: PlacedNode[] = [];
  const byId = new Map<string, PlacedNode>();
  const bounds = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
  let min = Infinity;
  let max = -Infinity;
  const depthShift = rootless > 1 ? DEPTH_GAP : 0;
  laid.each((d: HierarchyPointNode<NodeOutline>) => {
    if (d.data.id === FOREST) return;
    const parent = d.parent && d.parent.data.id !== FOREST ? (byId.get(d.parent.data.id) ?? null) : null;
    const score = scoreOf(d.data);
    const placed: PlacedNode = { id: d.data.id, record: d.data, x: d.y - depthShift, y: d.x, parent, children: [], score };
    parent?.children.push(placed);
    nodes.push(placed);
    byId.set(placed.id, placed);
    bounds.x0 = Math.min(bounds.x0, placed.x);
    bounds.x1 = Math.max(bounds.x1, placed.x);
    bounds.y0 = Math.min(bounds.y0, placed.y);
    bounds.y1 = Math.max(bounds.y1, placed.y);
    if (score !== null) {
      min = Math.min(min, score);
      max = Math.max(max, score);
    }
  });

  const bestPath = new Set<string>();
  for (let n = bestId ? byId.get(bestId) : undefined; n; n = n.parent ?? undefined) bestPath.add(n.id);
  return { nodes, byId, bestPath, bounds, scores: min <= max ? { min, max } : null };
}
