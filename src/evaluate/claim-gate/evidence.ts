import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readTree } from '../../core/checkpoint/tree.ts';
import { isSafeId } from '../../core/paths.ts';
import { experimentsDirOf } from '../../core/workspace.ts';
import { toKeyword } from '../metric-keyword.ts';
import { readNodeResults } from '../node-results.ts';

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
export function collectEvidence(checkpointDir: string): Evidence {
  const evidence: Evidence = { byKey: new Map(), nodes: new Set(), problems: [] };
  const add = (key: string, value: number, node_id: string, source: EvidenceValue['source']) => {
    const k = toKeyword(key);
    if (!k || !Number.isFinite(value)) return;
    const list = evidence.byKey.get(k) ?? [];
    list.push({ key: k, value, node_id, source });
    evidence.byKey.set(k, list);
    evidence.nodes.add(node_id);
  };
  const tree = readTree(checkpointDir);
  evidence.problems.push(...tree.problems);
  const ids = new Set<string>();
  for (const node of tree.tree?.nodes ?? []) {
    if (isSafeId(node.id)) ids.add(node.id);
    const metrics = (node as { metrics?: unknown }).metrics;
    if (metrics === null || typeof metrics !== 'object') continue;
    for (const [k, v] of Object.entries(metrics)) if (!k.startsWith('_') && typeof v === 'number') add(k, v, node.id, 'tree.json');
  }
  const experiments = experimentsDirOf(checkpointDir);
  for (const id of workDirs(experiments)) ids.add(id);
  for (const id of [...ids].sort()) {
    const read = readNodeResults(join(experiments, id));
    if (read.problem) evidence.problems.push(read.problem);
    for (const [k, m] of Object.entries(read.results?.measurements ?? {})) {
      const trials = Array.isArray(m) ? m : [m];
      for (const v of trials) add(k, v, id, 'results.json');
      if (trials.length > 1) add(k, read.results?.values[k] as number, id, 'results.json');
    }
  }
  return evidence;
}

function workDirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && isSafeId(e.name))
      .map((e) => e.name);
  } catch {
    return [];
  }
}
