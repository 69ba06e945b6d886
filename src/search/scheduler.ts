import { join } from 'node:path';
import { oneLine } from '../core/errors.ts';
import { checkSettings } from './check-settings.ts';
import type { NodeOutcome, NodeRunner, RunContext, SearchNode } from './contract.ts';
import { proposeChild } from './expand.ts';
import { buildWorkDir } from './inherit.ts';
import { decideLineage, type LineageDecision, lineageTrigger } from './lineage.ts';
import { SelectMemory } from './memory-context.ts';
import { failedOutcome, runWithLimits } from './run-node.ts';
import { SearchTree } from './search-tree.ts';
import { selectNode } from './select.ts';

export type SearchOptions = {
  signal: AbortSignal;
  onLineage?: (d: LineageDecision) => Promise<void>;
  onProgress?: (nodes: SearchNode[]) => void;
};

export type SearchResult = { nodes: SearchNode[]; best: SearchNode | null; ended: 'done' | 'terminated' | 'stopped' };

/**
 * The best-first tree search of a run, new or resumed from its tree.json. A pool of
 * settings.parallel workers: whenever one is free it takes the next node at once: a pending one
 * (the model picks among several), else a new child of the frontier node the model picks. Ends
 * when nothing is pending or running and nothing can be expanded, on a lineage terminate, or
 * when `signal` aborts (running nodes are stopped and waited for; the tree is saved).
 */
export async function runSearch(ctx: RunContext, runNode: NodeRunner, opts: SearchOptions): Promise<SearchResult> {
  checkSettings(ctx.settings);
  const tree = SearchTree.open(ctx, opts.onProgress);
  tree.flush();
  const memory = new SelectMemory(ctx);
  const running = new Map<string, Promise<void>>();
  const finished: { node: SearchNode; outcome: NodeOutcome }[] = [];
  let wakeUp: (() => void) | null = null;
  const wake = () => {
    wakeUp?.();
    wakeUp = null;
  };
  opts.signal.addEventListener('abort', wake, { once: true });
  let terminated = false;
  const stopping = () => opts.signal.aborted || terminated;

  /** Starts the runners of nodes already marked running; one save records them all first. */
  const launch = (nodes: SearchNode[]) => {
    tree.flush();
    for (const node of nodes) {
      const parent = node.parent_id ? (tree.byId.get(node.parent_id) ?? null) : null;
      const workDir = join(ctx.experimentsDir, node.id);
      const work = (async () => {
        let outcome: NodeOutcome;
        try {
          buildWorkDir(workDir, { checkpointDir: ctx.checkpointDir, parentDir: parent ? join(ctx.experimentsDir, parent.id) : null, goal: ctx.goal, log: ctx.log });
          outcome = await runWithLimits(runNode, { ctx, node, parent, workDir }, opts.signal);
        } catch (err) {
          outcome = failedOutcome(`the work directory could not be prepared: ${oneLine(err)}`);
        }
        finished.push({ node, outcome });
        wake();
      })();
      running.set(node.id, work);
    }
  };

  /** Records finished nodes (one save for all), then asks the lineage judge after each when it fires. */
  const settle = async () => {
    const done = finished.splice(0);
    for (const { node, outcome } of done) {
      running.delete(node.id);
      tree.finish(node, outcome);
      ctx.log(`bfts: ${node.id} ${node.status}${node.error_log ? `: ${node.error_log}` : ''}`);
    }
    tree.flush();
    for (const _ of done) {
      if (stopping()) return;
      const view = { nodes: tree.nodes, executed: tree.executed, best: tree.best(), fired: tree.state.lineage.fired };
      const trigger = lineageTrigger(ctx, view);
      if (!trigger) continue;
      const d = await decideLineage(ctx, view, trigger, { signal: opts.signal, onLineage: opts.onLineage });
      if (d.action === 'terminate') {
        terminated = true;
        ctx.log(`bfts: the lineage judge ended the search: ${d.rationale}`);
      }
      tree.state.lineage.fired = view.fired + 1;
      tree.markChanged();
      tree.flush();
    }
  };

  const canExpand = () => ctx.settings.expansionEnabled && !stopping() && tree.hasRoom() && tree.expandable().length > 0;

  const expandOne = async () => {
    const goal = ctx.goal.slice(0, 3000);
    const parent = await selectNode(ctx, tree.expandable(), tree.scoreInputs(), { op: 'select_best_to_expand', template: ctx.settings.expandSelectPrompt, values: { experiment_goal: goal }, signal: opts.signal });
    const e = await proposeChild(ctx, parent, tree.byId, opts.signal);
    if (stopping() || !tree.hasRoom()) return;
    const child = tree.addChild(parent, e);
    ctx.log(`bfts: ${child.id} ${child.name} (child of ${parent.id})`);
  };

  /** Fills the free workers from the pending nodes, the model choosing when several wait. */
  const startPending = async () => {
    let chosen: SearchNode[] = [];
    while (!stopping() && running.size + chosen.length < ctx.settings.parallel && tree.pending.length) {
      const pending = tree.pending.map((id) => tree.byId.get(id) as SearchNode);
      if (pending.length > 1 && chosen.length) {
        launch(chosen); // those already chosen need not wait for the next choice
        chosen = [];
      }
      const values = { experiment_goal: ctx.goal.slice(0, 3000), memory_context: pending.length > 1 ? await memory.context(pending) : '' };
      const node = await selectNode(ctx, pending, tree.scoreInputs(), { op: 'select_next_node', template: ctx.settings.selectPrompt, values, signal: opts.signal });
      if (stopping()) break;
      tree.markRunning(node);
      chosen.push(node);
    }
    if (chosen.length) launch(chosen);
  };

  for (;;) {
    await settle();
    if (stopping()) break;
    while (tree.pending.length < ctx.settings.parallel - running.size && canExpand()) await expandOne();
    await startPending();
    if (finished.length) continue;
    if (!running.size && !tree.pending.length && !canExpand()) break;
    if (!running.size) continue;
    await new Promise<void>((resolve) => {
      wakeUp = resolve;
      if (finished.length || opts.signal.aborted) wake();
    });
  }
  // stopping: running nodes got the abort (or finish on their own after a terminate); wait for them
  await Promise.all(running.values());
  await settle();
  if (!opts.signal.aborted) tree.end(terminated ? 'terminated' : 'done');
  tree.flush(true);
  opts.signal.removeEventListener('abort', wake);
  return { nodes: tree.nodes, best: tree.best(), ended: opts.signal.aborted ? 'stopped' : terminated ? 'terminated' : 'done' };
}
