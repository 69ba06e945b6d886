import { edenGC } from 'bun:jsc';
import { join } from 'node:path';
import type { NodeRecord } from '../../schema/checkpoint.ts';
import { parseLine } from '../json-object.ts';
import { isSafeId, readTextOrNull, statOrNull } from '../paths.ts';
import { printable } from '../text.ts';
import { isMapping } from '../values.ts';
import { experimentsDirOf } from '../workspace.ts';
import { MAX_NODE_REPORT_BYTES, NODE_REPORT_FILE } from './node-report.ts';
import { memoByFile } from '../file-memo.ts';

/** Where a node's commands ran, as its node_report.json says. */
export type Placement = {
  executor: string | null;
  /** the machine the commands ran on: the compute node for a scheduler's node */
  host: string | null;
  /** the scheduler job the commands ran in */
  job_id: string | null;
  /** the container image they ran in */
  image: string | null;
};

/**
 * The placement of every node with a readable report in its work directory; a node without one
 * (not run yet, damaged) is left out. The tree's `node_report_path` is not followed: a tree may
 * come from elsewhere, and the report is always in the node's work directory.
 */
export function nodePlacements(dir: string, nodes: NodeRecord[]): Record<string, Placement> {
  const experiments = experimentsDirOf(dir);
  const found: [string, Placement][] = [];
  for (const node of nodes) {
    const p = typeof node.id === 'string' && isSafeId(node.id) ? placementOf(join(experiments, node.id, NODE_REPORT_FILE)) : null;
    if (p) found.push([node.id, p]);
  }
  // fromEntries: a node id such as __proto__ stays a key
  return Object.fromEntries(found);
}

/** Reports read between two collections of the garbage they leave. */
const COLLECT_EVERY = 16;
let parsed = 0;

/** Each report's placement, kept while the report is unchanged: a large tree is drawn again on every visit. */
const placementOf = memoByFile(readPlacement, 20_000);

function readPlacement(path: string): Placement | null {
  // not a regular file (a FIFO would hang the read), or far too large to be a report
  const st = statOrNull(path);
  if (!st?.isFile() || st.size > MAX_NODE_REPORT_BYTES) return null;
  const r = parseLine(readTextOrNull(path) ?? '');
  // each report parsed whole is garbage at once but for four strings: collected young, a thousand
  // reports would otherwise pile up megabytes before the collector runs
  if (++parsed % COLLECT_EVERY === 0) edenGC();
  if (!r) return null;
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  return { executor: text(r.executor), host: text(r.hostname), job_id: text(r.slurm_job_id), image: isMapping(r.container) ? text(r.container.image) : null };
}

/** `on vm (slurm job 67) in image`: the placement as the tree's text shows it. */
export function placementText(p: Placement): string {
  const where = p.host ? `on ${printable(p.host)}` : '';
  const job = p.executor && p.executor !== 'local' ? `(${printable(p.executor)}${p.job_id ? ` job ${printable(p.job_id)}` : ''})` : '';
  return [where, job, p.image ? `in ${printable(p.image)}` : ''].filter(Boolean).join(' ');
}
