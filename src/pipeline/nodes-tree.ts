import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic, writeJsonAtomic } from '../core/atomic.ts';
import { experimentsDirOf } from '../core/workspace.ts';
import { RESULTS_FILE } from '../evaluate/node-results.ts';
import type { SearchNode } from '../search/contract.ts';
import { NODES_TREE_FILE } from '../search/tree-store.ts';

export const NO_REAL_DATA_FILE = 'bfts_no_real_data.json';

/** A node as the paper stages read it: the tree's record plus where its files and numbers are. */
export type PaperNode = SearchNode & { work_dir: string; results_path: string | null };

/**
 * Rewrites the checkpoint's nodes_tree.json for the paper stages: the experiment goal and every
 * node of the tree with its work directory and its results.json (null when it wrote none), next
 * to the metrics, has_real_data, eval_summary and label the search recorded.
 */
export function writeNodesTree(checkpointDir: string, goal: string, nodes: readonly SearchNode[]): PaperNode[] {
  const experiments = experimentsDirOf(checkpointDir);
  const enriched = nodes.map((n) => {
    const workDir = join(experiments, n.id);
    const results = join(workDir, RESULTS_FILE);
    return { ...n, work_dir: workDir, results_path: existsSync(results) ? results : null };
  });
  // one line per node, as the search writes it: trace logs make up most of a large tree
  const body = enriched.length ? `[\n    ${enriched.map((n) => JSON.stringify(n)).join(',\n    ')}\n  ]` : '[]';
  const text = JSON.stringify({ experiment_goal: goal.slice(0, 3000), nodes: '@@nodes@@' }, null, 2).replace('"@@nodes@@"', () => body);
  writeFileAtomic(join(checkpointDir, NODES_TREE_FILE), `${text}\n`);
  return enriched;
}

/** A measured number under a name of its own (the `_` keys are the evaluator's scores). */
const measuredKeys = (n: SearchNode) => Object.keys(n.metrics).filter((k) => !k.startsWith('_') && typeof n.metrics[k] === 'number');

export type GateVerdict = { passed: true } | { passed: false; line: string; record: Record<string, unknown> };

/**
 * The sanity gate before any paper stage: when some node left artifacts or metrics but none has
 * real data with measured metrics, the search produced nothing a paper could honestly report. A
 * tree with no work at all passes (there is nothing to misreport).
 */
export function realDataGate(nodes: readonly SearchNode[]): GateVerdict {
  const worked = nodes.filter((n) => n.artifacts.length > 0 || Object.keys(n.metrics).length > 0);
  const real = nodes.filter((n) => n.has_real_data && measuredKeys(n).length > 0);
  if (worked.length === 0 || real.length > 0) return { passed: true };
  const record = {
    checked_at: new Date().toISOString(),
    reason: 'no node has real data with measured metrics',
    nodes: nodes.map((n) => ({ id: n.id, status: n.status, label: n.label, has_real_data: n.has_real_data, artifacts: n.artifacts.length, metrics: Object.keys(n.metrics), eval_summary: n.eval_summary })),
    override: 'SVC_FORCE_PAPER=1',
  };
  const line = `no node of the search has real data with measured metrics (${worked.length} of ${nodes.length} left artifacts or metrics); nothing for a paper to report`;
  return { passed: false, line, record };
}

/** Records the gate's finding in the checkpoint, or removes a finding a later search made stale. */
export function recordGate(checkpointDir: string, verdict: GateVerdict): void {
  const file = join(checkpointDir, NO_REAL_DATA_FILE);
  if (!verdict.passed) writeJsonAtomic(file, verdict.record);
  else rmSync(file, { force: true });
}
