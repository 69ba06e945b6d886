import type { NodeOutcome, RunContext, SearchNode } from './contract.ts';
import { bestNode, scoreOf } from './contract.ts';
import type { ScoreInputs } from './frontier-score.ts';
import { newChild, newRoot, resetToPending } from './node.ts';
import type { Expansion } from './parse-expansion.ts';
import { loadTree, newHeader, type SearchState, TreeStore } from './tree-store.ts';

/** A resumed run runs again the nodes that had not finished well: pending, interrupted and failed ones. */
export const runsAgain = (status: string | undefined) => status === 'pending' || status === 'running' || status === 'failed';

/**
 * The search's nodes and pools, and every transition of a node. Each transition marks the tree
 * changed; `flush` writes it. The scheduler flushes before a node starts (a node never runs
 * unrecorded) and as soon as nodes finish; transitions made together (several nodes finishing,
 * a child created and started) share one save.
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

  private constructor(
    private readonly ctx: RunContext,
    nodes: SearchNode[],
    state: SearchState,
    store: TreeStore,
    private readonly onChange?: (nodes: SearchNode[]) => void,
  ) {
    this.nodes = nodes;
    this.state = state;
    // a search opened to run has not ended, whatever the run before it recorded
    delete state.ended;
    this.store = store;
    for (const n of nodes) this.byId.set(n.id, n);
    // a resumed run runs again what had not finished well: pending, interrupted and failed nodes keep their ids and places
    const again = nodes.filter((n) => runsAgain(n.status));
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

  /** Saves what changed; `final` (the search's last save) brings the views up to date too. */
  flush(final = false): void {
    if (!this.dirty && !final) return;
    this.store.save(this.nodes, this.state, final);
    this.dirty = false;
    this.onChange?.(this.nodes);
  }

  /** The search ran to its end: recorded, so that a resume knows there is nothing left. */
  end(how: 'done' | 'terminated'): void {
    this.state.ended = how;
    this.dirty = true;
  }

  /** A change made outside the transitions below (the lineage counter). */
  markChanged(): void {
    this.dirty = true;
  }

  scoreInputs(): ScoreInputs {
    return { settings: this.ctx.settings, labelHistory: this.state.label_history, expansions: this.state.expansions, frontierSize: this.state.frontier.length };
  }

  /** Whether a node may still get a child: under the depth cap, not sterile, expanded fewer times than allowed. */
  private canGrow(n: SearchNode): boolean {
    const s = this.ctx.settings;
    return n.depth < s.maxDepth && n.metrics._sterile !== true && (this.state.expansions[n.id] ?? 0) < s.maxExpansionsPerNode;
  }

  /** Frontier nodes that may still get a child (a frontier loaded from another tool's file may hold others). */
  expandable(): SearchNode[] {
    return this.state.frontier.map((id) => this.byId.get(id)).filter((n): n is SearchNode => !!n && this.canGrow(n));
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
    if (!this.canGrow(parent)) this.retire(parent.id);
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

  /**
   * A finished node joins the frontier (failed ones too: they get debug children) unless it can
   * never grow (depth cap, sterile); a child that beats its parent retires the parent (rule A).
   */
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
    if (this.canGrow(node) && !this.state.frontier.includes(node.id)) this.state.frontier.push(node.id);
    const parent = node.parent_id ? this.byId.get(node.parent_id) : undefined;
    if (parent && scoreOf(node) > scoreOf(parent)) this.retire(parent.id);
    this.dirty = true;
  }

  private retire(id: string): void {
    this.state.frontier = this.state.frontier.filter((f) => f !== id);
  }

  /** The best finished node: highest score among successes, those with real data first. */
  best(): SearchNode | null {
    return bestNode(this.nodes);
  }
}
