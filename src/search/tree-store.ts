import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../core/atomic.ts';
import { InvalidRecordError } from '../core/errors.ts';
import { NODE_LABELS, type NodeLabel, type SearchNode } from './contract.ts';

/** What the scheduler needs to continue a run, kept in tree.json next to the nodes. */
export type SearchState = {
  frontier: string[];
  expansions: Record<string, number>;
  label_history: NodeLabel[];
  lineage: { fired: number };
};

export type TreeHeader = {
  run_id: string;
  experiment_file: string;
  experiment_file_sha256: string;
  experiment_file_len: number;
  created_at: string;
};

export type LoadedTree = { header: TreeHeader; nodes: SearchNode[]; state: SearchState };

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

/**
 * Writes tree.json, nodes_tree.json and results.json, each atomically; tree.json last, so the
 * file a resume reads never names a node the other two lack. A node's text is made once and again
 * only after `changed(node)`, which keeps a save of a large tree cheap.
 */
export class TreeStore {
  private readonly nodeText = new WeakMap<SearchNode, { tree: string; result: string }>();

  constructor(
    private readonly checkpointDir: string,
    private readonly header: TreeHeader,
    private readonly goal: string,
  ) {}

  /** A node changed: its text is made again at the next save. */
  changed(node: SearchNode): void {
    this.nodeText.delete(node);
  }

  save(nodes: SearchNode[], state: SearchState): void {
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
    writeFileAtomic(join(this.checkpointDir, RESULTS_FILE), `${JSON.stringify({ run_id: this.header.run_id, nodes: NODES_MARK }, null, 2).replace(`"${NODES_MARK}"`, () => resultsJson)}\n`);
    writeFileAtomic(join(this.checkpointDir, NODES_TREE_FILE), `${fill(JSON.stringify({ experiment_goal: this.goal.slice(0, 3000), nodes: NODES_MARK }, null, 2))}\n`);
    writeFileAtomic(join(this.checkpointDir, TREE_FILE), `${fill(JSON.stringify({ ...this.header, nodes: NODES_MARK, search_state: state }, null, 2))}\n`);
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

/** tree.json of a checkpoint, or null when the run has none yet. */
export function loadTree(checkpointDir: string): LoadedTree | null {
  const path = join(checkpointDir, TREE_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new InvalidRecordError(`${path} is not JSON: ${(err as Error).message}`, 'restore it from a backup, or delete it to start the search over');
  }
  if (!raw || typeof raw !== 'object' || !Array.isArray(raw.nodes)) throw new InvalidRecordError(`${path} has no nodes list`, 'restore it from a backup, or delete it to start the search over');
  const nodes = (raw.nodes as unknown[]).map((r, i) => nodeOf(r, `${path} node ${i}`));
  const header: TreeHeader = {
    run_id: String(raw.run_id ?? ''),
    experiment_file: String(raw.experiment_file ?? join(checkpointDir, 'experiment.md')),
    experiment_file_sha256: String(raw.experiment_file_sha256 ?? ''),
    experiment_file_len: Number(raw.experiment_file_len ?? 0),
    created_at: String(raw.created_at ?? new Date().toISOString()),
  };
  return { header, nodes, state: stateOf(raw.search_state, nodes) };
}

/** A stored node in the record's key order; fields an older file lacks get their empty value. */
function nodeOf(r: unknown, where: string): SearchNode {
  if (!r || typeof r !== 'object' || typeof (r as { id?: unknown }).id !== 'string') throw new InvalidRecordError(`${where} has no id`, 'restore tree.json from a backup');
  const o = r as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  const arr = <T>(v: unknown) => (Array.isArray(v) ? (v as T[]) : []);
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
  return { frontier, expansions, label_history: labels, lineage: { fired: typeof lineage.fired === 'number' ? lineage.fired : 0 } };
}
