import { createHash } from 'node:crypto';
import type { NodeLabel, SearchNode } from './contract.ts';

/** The root of a run's tree. */
export function rootIdOf(runId: string): string {
  return `node_${runId}_root`;
}

/**
 * Child n (0-based) of a parent: a pure function of its place in the tree. The root counts as
 * `root` whatever its run id, so a replayed run, which has another run id, names its nodes alike.
 */
export function childIdOf(parentId: string, n: number): string {
  const parent = /^node_.+_root$/.test(parentId) ? 'root' : parentId;
  return `node_${createHash('sha256').update(`${parent}/${n}`).digest('hex').slice(0, 8)}`;
}

/** `<label>: <first 60 characters of the direction>`. */
export function nodeName(label: NodeLabel, direction: string): string {
  return `${label}: ${Array.from(direction.replace(/\s+/g, ' ').trim()).slice(0, 60).join('')}`;
}

type NodeSeed = { id: string; parent: SearchNode | null; label: NodeLabel; rawLabel: string; name: string; direction: string | null; now: string };

/** A new pending node with every key of the record, in the order tree.json keeps. */
export function newNode(s: NodeSeed): SearchNode {
  return {
    id: s.id,
    parent_id: s.parent?.id ?? null,
    depth: s.parent ? s.parent.depth + 1 : 0,
    status: 'pending',
    retry_count: 0,
    children: [],
    created_at: s.now,
    completed_at: null,
    artifacts: [],
    metrics: {},
    has_real_data: false,
    eval_summary: s.direction,
    label: s.label,
    raw_label: s.rawLabel,
    name: s.name,
    error_log: null,
    ancestor_ids: s.parent ? [...s.parent.ancestor_ids, s.parent.id] : [],
    trace_log: [],
    original_direction: s.direction,
    node_report_path: null,
  };
}

/** The root node: a draft of the goal. */
export function newRoot(runId: string, goal: string, now: string): SearchNode {
  const line = goal.split('\n').map((l) => l.replace(/^#+\s*/, '').trim()).find(Boolean) ?? 'experiment';
  return newNode({ id: rootIdOf(runId), parent: null, label: 'draft', rawLabel: 'draft', name: nodeName('draft', line), direction: null, now });
}

/**
 * A child of `parent`, added to its children. Ids are the parent's child count hashed; should
 * that id already be taken (a hash clash) the next count is tried, which is as deterministic.
 */
export function newChild(parent: SearchNode, taken: (id: string) => boolean, label: NodeLabel, rawLabel: string, direction: string, now: string): SearchNode {
  let n = parent.children.length;
  let id = childIdOf(parent.id, n);
  while (taken(id)) id = childIdOf(parent.id, ++n);
  const child = newNode({ id, parent, label, rawLabel, name: nodeName(label, direction), direction, now });
  parent.children.push(id);
  return child;
}

/** A node made pending again (a resumed run re-runs it): what a run wrote is cleared. */
export function resetToPending(node: SearchNode): void {
  node.status = 'pending';
  node.completed_at = null;
  node.artifacts = [];
  node.metrics = {};
  node.has_real_data = false;
  node.eval_summary = node.original_direction;
  node.error_log = null;
  node.trace_log = [];
  node.node_report_path = null;
}
