import { toKeyword } from '../metric-keyword.ts';
import { type RunNodes, readRunNodes } from './nodes.ts';

/** One number a node reported, and where. */
export type EvidenceValue = { key: string; value: number; node_id: string; source: 'results.json' | 'tree.json' };

export type Evidence = {
  /** by metric keyword (snake_case) */
  byKey: Map<string, EvidenceValue[]>;
  nodes: Set<string>;
  /** files that could not be read, one line each */
  problems: string[];
};

/**
 * Every number the run's nodes reported: the measurements of each node's own results.json (each
 * trial of a list and their mean), and the numeric metrics tree.json records for it (reserved `_`
 * keys excluded). The nodes are those of the tree and the work directories of the experiments.
 */
export function collectEvidence(checkpointDir: string, run: RunNodes = readRunNodes(checkpointDir)): Evidence {
  const evidence: Evidence = { byKey: new Map(), nodes: new Set(), problems: [...run.problems] };
  const add = (key: string, value: number, node_id: string, source: EvidenceValue['source']) => {
    const k = toKeyword(key);
    if (!k || !Number.isFinite(value)) return;
    const list = evidence.byKey.get(k) ?? [];
    list.push({ key: k, value, node_id, source });
    evidence.byKey.set(k, list);
    evidence.nodes.add(node_id);
  };
  for (const node of run.nodes.values()) for (const [k, v] of Object.entries(node.tree_metrics)) add(k, v, node.node_id, 'tree.json');
  for (const node of run.nodes.values()) {
    for (const [k, trials] of Object.entries(node.trials)) {
      for (const v of trials) add(k, v, node.node_id, 'results.json');
      if (trials.length > 1) add(k, node.measurements[k] as number, node.node_id, 'results.json');
    }
  }
  return evidence;
}
