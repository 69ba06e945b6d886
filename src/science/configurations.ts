import { join } from 'node:path';
import { nodeWorkDir } from '../core/checkpoint/files-node.ts';
import { oneLine } from '../core/errors.ts';
import { readNodeResults, RESULTS_FILE } from '../evaluate/node-results.ts';
import type { ScienceConfiguration } from '../schema/science-data.ts';
import type { TreeNodeView } from './nodes-file.ts';

/** A measured configuration before it is named: the node it is, and the tree's own name for it. */
export type MeasuredNode = Omit<ScienceConfiguration, 'name'> & { tree_name: string };

/**
 * The configurations of a search: every successful node with real data, its settings and
 * measurements read from its own results.json (a list of trials counts as its mean). A node
 * whose results.json is missing or damaged is left out with a note: its numbers are nowhere else
 * to be trusted. The work directory comes from the node's id, never from a path in the file.
 */
export function measuredNodes(checkpointDir: string, nodes: readonly TreeNodeView[], notes: string[]): MeasuredNode[] {
  const out: MeasuredNode[] = [];
  const unmeasured = nodes.filter((n) => n.status !== 'success' || !n.has_real_data).map((n) => n.id);
  if (unmeasured.length > 0) notes.push(`left out, no real data: ${unmeasured.join(', ')}`);
  for (const node of nodes) {
    if (node.status !== 'success' || !node.has_real_data) continue;
    let workDir: string;
    try {
      workDir = nodeWorkDir(checkpointDir, node.id);
    } catch (err) {
      notes.push(`${node.id} left out: ${oneLine(err)}`);
      continue;
    }
    const read = readNodeResults(workDir);
    if (!read.results) {
      notes.push(`${node.id} left out: ${read.problem ?? `no ${RESULTS_FILE} in ${workDir}`}`);
      continue;
    }
    if (read.problem) notes.push(read.problem);
    if (Object.keys(read.results.values).length === 0) {
      notes.push(`${node.id} left out: ${join(workDir, RESULTS_FILE)} holds no measurements`);
      continue;
    }
    out.push({
      node_id: node.id,
      label: node.raw_label === 'baseline' ? 'baseline' : node.label,
      tree_name: node.name,
      depth: node.depth,
      parent_id: node.parent_id,
      params: scalarParams(read.results.params),
      metrics: read.results.values,
      results_path: join(workDir, RESULTS_FILE),
    });
  }
  return out;
}

/** Settings as the schema keeps them: numbers, strings and booleans; anything else as its JSON. */
function scalarParams(params: Record<string, unknown>): ScienceConfiguration['params'] {
  const out: ScienceConfiguration['params'] = {};
  for (const [k, v] of Object.entries(params)) {
    if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') out[k] = v;
    else if (v !== null && v !== undefined) out[k] = JSON.stringify(v);
  }
  return out;
}
