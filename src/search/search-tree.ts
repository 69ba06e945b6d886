import type { NodeOutcome, RunContext, SearchNode } from './contract.ts';
import { scoreOf } from './contract.ts';
import type { ScoreInputs } from './frontier-score.ts';
import { newChild, newRoot, resetToPending } from './node.ts';
import type { Expansion } from './parse-expansion.ts';
import { loadTree, newHeader, type SearchState, TreeStore } from './tree-store.ts';

/** A change not needed on disk at once is written within this time (or sooner, with the next forced save). */
export const SAVE_THROTTLE_MS = 1000;

/**
 * The search's nodes and pools, and every transition of a node. Each transition marks the tree
 * changed. `flush` writes it at once: before a node starts, so a node never runs unrecorded.
 * `flushSoon` writes it within SAVE_THROTTLE_MS: after nodes finish, so a burst of short nodes
 * costs one save rather than one each, while no transition waits longer than that to reach disk.
 */
export class SearchTree {
  readonly nodes: SearchNode[];
  readonly byId = new Map<string, SearchNode>();
  /** created, not yet running; in creation order */
  readonly pending: string[];
  readonly state: SearchState;
  /** executed nodes in the order they finished */
  readonly executed: SearchNode[];
  private readonly store: TreeStore;
  private dirty = true;
  private lastSave = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  private constructor(
    private readonly ctx: RunContext,
    nodes: SearchNode[],
    state: SearchState,
    store: TreeStore,
    private readonly onChange?: (nodes: SearchNode[]) => void,
  ) {
    this.nodes = nodes;
    this.state = state;
    this.store = store;
    for (const n of nodes) this.byId.set(n.id, n);
    // a resumed run runs again what had not finished well: pending, interrupted and failed nodes keep their ids and places
    const again = nodes.filter((n) => n.status === 'pending' || n.status === 'running' || n.status === 'failed');
    for (const n of again) resetToPending(n);
    const rerun = new Set(again.map((n) => n.id));
    state.frontier = state.frontier.filter((id) => !rerun.has(id));
    this.pending = again.map((n) => n.id);
    this.executed = nodes.filter((n) => n.completed_at !== null && (n.status === 'success' || n.status === 'failed')).sort((a, b) => (a.completed_at as string).localeCompare(b.completed_at as string));
  }

  /** The tree of the checkpoint: the one on disk when there is one (a resume), else a new root. */
  static open(ctx: RunContext, onChange?: (nodes: SearchNode[]) => void): SearchTree {
    const loaded = loadTree(ctx.checkpointDir);
    const now = new Date().toISOString();
    const header = loaded?.header ?? newHeader(ctx.checkpointDir, ctx.runId, ctx.goal, now);
    const store = new TreeStore(ctx.checkpointDir, header, ctx.goal);
    if (loaded && loaded.nodes.length) return new SearchTree(ctx, loaded.nodes, loaded.state, store, onChange);
    const state: SearchState = { frontier: [], expansions: {}, label_history: [], lineage: { fired: 0 } };
    return new SearchTree(ctx, [newRoot(ctx.runId, ctx.goal, now)], state, store, onChange);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.dirty) return;
    this.store.save(this.nodes, this.state);
    this.dirty = false;
    this.lastSave = Date.now();
    this.onChange?.(this.nodes);
  }

  flushSoon(): void {
    if (!this.dirty || this.timer) return;
    const wait = this.lastSave + SAVE_THROTTLE_MS - Date.now();
    if (wait <= 0) this.flush();
    else this.timer = setTimeout(() => this.flush(), wait);
  }

  /** A change made outside the transitions below (the lineage counter). */
  markChanged(): void {
    this.dirty = true;
  }

  scoreInputs(): ScoreInputs {
    return { settings: this.ctx.settings, labelHistory: this.state.label_history, expansions: this.state.expansions, frontierSize: this.state.frontier.length };
  }

  /**
   * Frontier nodes that may still get a child; the others leave the frontier for good: at the
   * depth cap, sterile, or expanded the most times allowed.
   */
  expandable(): SearchNode[] {
    const s = this.ctx.settings;
    const keep = this.state.frontier.filter((id) => {
      const n = this.byId.get(id);
      return !!n && n.depth < s.maxDepth && n.metrics._sterile !== true && (this.state.expansions[id] ?? 0) < s.maxExpansionsPerNode;
    });
    // no save of its own: the same rules drop the same nodes again after a resume
    if (keep.length !== this.state.frontier.length) this.state.frontier = keep;
    return keep.map((id) => this.byId.get(id) as SearchNode);
  }

  /** Room for one more node under the node cap. */
  hasRoom(): boolean {
    return this.nodes.length < this.ctx.settings.maxNodes;
  }

  addChild(parent: SearchNode, e: Expansion): SearchNode {
    const child = newChild(parent, (id) => this.byId.has(id), e.label, e.rawLabel, e.direction, new Date().toISOString());
    this.nodes.push(child);
    this.byId.set(child.id, child);
    this.pending.push(child.id);
    this.state.expansions[parent.id] = (this.state.expansions[parent.id] ?? 0) + 1;
    this.store.changed(parent);
    this.dirty = true;
    return child;
  }

  markRunning(node: SearchNode): void {
    const i = this.pending.indexOf(node.id);
    if (i >= 0) this.pending.splice(i, 1);
    node.status = 'running';
    this.store.changed(node);
    this.dirty = true;
  }

  /** A finished node joins the frontier (failed ones too: they get debug children); a child that beats its parent retires it. */
  finish(node: SearchNode, o: NodeOutcome): void {
    node.status = o.status;
    node.completed_at = new Date().toISOString();
    node.artifacts = o.artifacts;
    node.metrics = o.metrics;
    node.has_real_data = o.has_real_data;
    node.eval_summary = o.eval_summary ?? node.eval_summary;
    node.error_log = o.error_log;
    node.trace_log = o.trace_log;
    node.node_report_path = o.node_report_path;
    this.store.changed(node);
    this.executed.push(node);
    this.state.label_history.push(node.label);
    if (!this.state.frontier.includes(node.id)) this.state.frontier.push(node.id);
    const parent = node.parent_id ? this.byId.get(node.parent_id) : undefined;
    if (parent && scoreOf(node) > scoreOf(parent)) this.state.frontier = this.state.frontier.filter((id) => id !== parent.id);
    this.dirty = true;
  }

  /** The best finished node: highest score among successes, those with real data first. */
  best(): SearchNode | null {
    const ok = this.nodes.filter((n) => n.status === 'success');
    const real = ok.filter((n) => n.has_real_data);
    const pool = real.length ? real : ok;
    let best: SearchNode | null = null;
    for (const n of pool) if (!best || scoreOf(n) > scoreOf(best)) best = n;
    return best;
  }
}
