import type { TreeFile } from '../../schema/checkpoint.ts';
import { isMapping } from '../values.ts';
import { runningPid } from './pid.ts';

/** `unreadable`: the directory itself could not be read (permissions, I/O error). */
export type CheckpointStatus = 'running' | 'done' | 'failed' | 'stopped' | 'new' | 'unreadable';

/**
 * running: the recorded PID is a live process. Otherwise the tree decides: a run that recorded
 * failed or stopped is that; one that left nodes running or pending, or whose search never
 * recorded its end, was interrupted (stopped, and `resume` would continue it); a checkpoint with
 * no tree yet is new; anything else is done.
 */
export function checkpointStatus(dir: string, tree: TreeFile | null): { status: CheckpointStatus; pid: number | null } {
  const pid = runningPid(dir);
  return pid !== null ? { status: 'running', pid } : { status: statusWithoutProcess(tree), pid: null };
}

/** The status the tree alone gives, when no process of the run is alive. */
export function statusWithoutProcess(tree: TreeFile | null): Exclude<CheckpointStatus, 'running' | 'unreadable'> {
  if (tree?.status === 'failed' || tree?.status === 'stopped') return tree.status;
  if (!tree) return 'new';
  if (tree.nodes.some((n) => n.status === 'running' || n.status === 'pending')) return 'stopped';
  if (searchCutShort(tree)) return 'stopped';
  return 'done';
}

/**
 * svc's tree.json carries the search state, and in it `ended` once the search ran to its end: a
 * search stopped between two nodes has every node finished but no end (trees of other tools,
 * without the state, are judged by their nodes alone).
 */
function searchCutShort(tree: TreeFile): boolean {
  const state = (tree as { search_state?: unknown }).search_state;
  return isMapping(state) && state.ended === undefined;
}

export type NodeCounts = { total: number; pending: number; running: number; success: number; failed: number; other: number };

/** Node statuses as counted; older files say completed or done for success. */
const NODE_STATUS = new Map<string | undefined, Exclude<keyof NodeCounts, 'total' | 'other'>>([['pending', 'pending'], ['running', 'running'], ['success', 'success'], ['failed', 'failed'], ['completed', 'success'], ['done', 'success']]);

export function normalizeNodeStatus(s: string | undefined): 'pending' | 'running' | 'success' | 'failed' | 'other' {
  return NODE_STATUS.get(s) ?? 'other';
}

export function countNodes(tree: TreeFile | null): NodeCounts {
  const c: NodeCounts = { total: 0, pending: 0, running: 0, success: 0, failed: 0, other: 0 };
  for (const n of tree?.nodes ?? []) {
    c.total++;
    c[normalizeNodeStatus(n.status)]++;
  }
  return c;
}
