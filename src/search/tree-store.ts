import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { writeFileAtomic } from '../core/atomic.ts';
import { readJsonObject } from '../core/json-object.ts';
import { InvalidRecordError } from '../core/errors.ts';
import { isSafeId } from '../core/paths.ts';
import { NODE_LABELS, type NodeLabel, type SearchNode } from './contract.ts';

/** What the scheduler needs to continue a run, kept in tree.json next to the nodes. */
export type SearchState = {
  frontier: string[];
  expansions: Record<string, number>;
  label_history: NodeLabel[];
  lineage: { fired: number };
  /** set when the search ran to its end (not stopped or killed): a resume then has nothing to do */
  ended?: 'done' | 'terminated';
};

export type TreeHeader = {
  run_id: string;
  experiment_file: string;
  experiment_file_sha256: string;
  experiment_file_len: number;
  created_at: string;
};

/** `svcState`: the tree carries svc's search state (a tree another tool wrote has none). */
export type LoadedTree = { header: TreeHeader; nodes: SearchNode[]; state: SearchState; svcState: boolean };

export const TREE_FILE = 'tree.json';
export const NODES_TREE_FILE = 'nodes_tree.json';
export const RESULTS_FILE = 'results.json';

const NODES_MARK = '@@svc-nodes@@';

/** The header of a new tree: the goal's size and digest say which experiment.md it searched. */
export function newHeader(checkpointDir: string, runId: string, goal: string, now: string): TreeHeader {
  return {
    run_id: runId,
    experiment_file: join(checkpointDir, 'experiment.md'),
    experiment_file_sha256: createHash('sha256').update(goal).digest('hex').slice(0, 16),
    experiment_file_len: Buffer.byteLength(goal),
    created_at: now,
  };
}

/** How often the views of tree.json (nodes_tree.json, results.json) are rewritten during a search. */
const VIEWS_INTERVAL_MS = 1000;

/**
 * Writes tree.json at every save, and its views nodes_tree.json and results.json at most once a
 * second and at the last save: each atomically. Writing all three at every transition would cost
 * three times the bytes of a tree that grows with every node. A node's text is made once and again
 * only after `changed(node)`, which keeps a save of a large tree cheap.
 */
export class TreeStore {
  private readonly nodeText = new WeakMap<SearchNode, { tree: string; result: string }>();
  private viewsAt = 0;

  constructor(
    private readonly checkpointDir: string,
    private readonly header: TreeHeader,
    private readonly goal: string,
  ) {}

  /** A node changed: its text is made again at the next save. */
  changed(node: SearchNode): void {
    this.nodeText.delete(node);
  }

  save(nodes: SearchNode[], state: SearchState, final = false): void {
    const tree: string[] = [];
    const results: string[] = [];
    for (const n of nodes) {
      const t = this.textOf(n);
      tree.push(t.tree);
      results.push(t.result);
    }
    const nodesJson = tree.length ? `[\n    ${tree.join(',\n    ')}\n  ]` : '[]';
    const fill = (text: string) => text.replace(`"${NODES_MARK}"`, () => nodesJson);
    const resultsJson = results.length ? `{\n    ${results.join(',\n    ')}\n  }` : '{}';
    writeFileAtomic(join(this.checkpointDir, TREE_FILE), `${fill(JSON.stringify({ ...this.header, nodes: NODES_MARK, search_state: state }, null, 2))}\n`);
    if (!final && Date.now() - this.viewsAt < VIEWS_INTERVAL_MS) return;
    this.viewsAt = Date.now();
    // views, rebuilt from the tree at the next save: only tree.json, the one resume reads, is worth an fsync
    writeFileAtomic(join(this.checkpointDir, RESULTS_FILE), `${JSON.stringify({ run_id: this.header.run_id, nodes: NODES_MARK }, null, 2).replace(`"${NODES_MARK}"`, () => resultsJson)}\n`, 0o644, false);
    writeFileAtomic(join(this.checkpointDir, NODES_TREE_FILE), `${fill(JSON.stringify({ experiment_goal: this.goal.slice(0, 3000), nodes: NODES_MARK }, null, 2))}\n`, 0o644, false);
  }

  private textOf(n: SearchNode): { tree: string; result: string } {
    const cached = this.nodeText.get(n);
    if (cached) return cached;
    const result = { artifacts: n.artifacts, metrics: n.metrics, has_real_data: n.has_real_data, eval_summary: n.eval_summary, status: n.status, error_log: n.error_log };
    // one line per node: a save rewrites every node, and the whitespace of nested layout was a third of the bytes
    const t = { tree: JSON.stringify(n), result: `${JSON.stringify(n.id)}: ${JSON.stringify(result)}` };
    this.nodeText.set(n, t);
    return t;
  }
}

const RESTORE_HINT = 'restore it from a backup, or delete it to start the search over';

/** tree.json of a checkpoint, or null when the run has none yet. */
export function loadTree(checkpointDir: string): LoadedTree | null {
  const path = join(checkpointDir, TREE_FILE);
  const raw = readJsonObject(path, RESTORE_HINT);
  if (raw === null) return null;
  if (!Array.isArray(raw.nodes)) throw new InvalidRecordError(`${path} has no nodes list`, RESTORE_HINT);
  const nodes = (raw.nodes as unknown[]).map((r, i) => nodeOf(r, `${path} node ${i}`));
  const header: TreeHeader = {
    run_id: String(raw.run_id ?? ''),
    experiment_file: String(raw.experiment_file ?? join(checkpointDir, 'experiment.md')),
    experiment_file_sha256: String(raw.experiment_file_sha256 ?? ''),
    experiment_file_len: Number(raw.experiment_file_len ?? 0),
    created_at: String(raw.created_at ?? new Date().toISOString()),
  };
  return { header, nodes, state: stateOf(raw.search_state, nodes), svcState: raw.search_state !== undefined };
}

/** A stored node in the record's key order; fields an older file lacks get their empty value. */
function nodeOf(r: unknown, where: string): SearchNode {
  if (!r || typeof r !== 'object' || typeof (r as { id?: unknown }).id !== 'string') throw new InvalidRecordError(`${where} has no id`, 'restore tree.json from a backup');
  const o = r as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  const arr = <T>(v: unknown) => (Array.isArray(v) ? (v as T[]) : []);
  // ids name work directories, and a resumed node's is wiped: an id that is a path is refused
  for (const id of [o.id, o.parent_id ?? null, ...arr<unknown>(o.children)]) {
    if (id !== null && !(typeof id === 'string' && isSafeId(id))) throw new InvalidRecordError(`${where} names ${JSON.stringify(id)?.slice(0, 80)}, which is no node id`, 'restore tree.json from a backup');
  }
  const label = (NODE_LABELS as readonly string[]).includes(String(o.label)) ? (o.label as NodeLabel) : 'other';
  const status = ['pending', 'running', 'success', 'failed', 'abandoned'].includes(String(o.status)) ? (o.status as SearchNode['status']) : o.status === 'completed' || o.status === 'done' ? 'success' : 'failed';
  return {
    id: o.id as string,
    parent_id: str(o.parent_id),
    depth: typeof o.depth === 'number' ? o.depth : 0,
    status,
    retry_count: typeof o.retry_count === 'number' ? o.retry_count : 0,
    children: arr<string>(o.children),
    created_at: str(o.created_at) ?? '',
    completed_at: str(o.completed_at),
    artifacts: arr<unknown>(o.artifacts),
    metrics: o.metrics && typeof o.metrics === 'object' ? (o.metrics as Record<string, unknown>) : {},
    has_real_data: o.has_real_data === true,
    eval_summary: str(o.eval_summary),
    label,
    raw_label: str(o.raw_label) ?? label,
    name: str(o.name) ?? '',
    error_log: str(o.error_log),
    ancestor_ids: arr<string>(o.ancestor_ids),
    trace_log: arr<string>(o.trace_log),
    original_direction: str(o.original_direction),
    node_report_path: str(o.node_report_path),
  };
}

/** The stored search state; a tree written without one (another tool's) gets one from its nodes. */
function stateOf(raw: unknown, nodes: SearchNode[]): SearchState {
  const ids = new Set(nodes.map((n) => n.id));
  const s = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const done = nodes.filter((n) => n.status === 'success' || n.status === 'failed');
  const frontier = Array.isArray(s.frontier) ? (s.frontier as unknown[]).filter((id): id is string => typeof id === 'string' && ids.has(id)) : done.map((n) => n.id);
  const expansions: Record<string, number> = {};
  if (s.expansions && typeof s.expansions === 'object') {
    for (const [id, v] of Object.entries(s.expansions)) if (ids.has(id) && typeof v === 'number') expansions[id] = v;
  } else {
    for (const n of nodes) if (n.children.length) expansions[n.id] = n.children.length;
  }
  const labels = Array.isArray(s.label_history) ? (s.label_history as unknown[]).filter((l): l is NodeLabel => (NODE_LABELS as readonly unknown[]).includes(l)) : done.map((n) => n.label);
  const lineage = s.lineage && typeof s.lineage === 'object' ? (s.lineage as Record<string, unknown>) : {};
  const state: SearchState = { frontier, expansions, label_history: labels, lineage: { fired: typeof lineage.fired === 'number' ? lineage.fired : 0 } };
  if (s.ended === 'done' || s.ended === 'terminated') state.ended = s.ended;
  return state;
}
