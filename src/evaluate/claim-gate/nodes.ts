import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readTree } from '../../core/checkpoint/tree.ts';
import { hashFileSync } from '../../core/file-hash.ts';
import { isFileAt, isSafeId, statOrNull } from '../../core/paths.ts';
import { experimentsDirOf } from '../../core/workspace.ts';
import { RESULTS_FILE, readNodeResults } from '../node-results.ts';

/** Statuses of a node whose code was run (whatever came of it); others (pending, running) were not. */
const RAN = new Set(['success', 'failed', 'error', 'completed', 'done', 'timeout', 'stopped']);

/** What a run left of one node: where its work is, the results it wrote, whether it ran. */
export type NodeArtifacts = {
  node_id: string;
  work_dir: string;
  work_dir_exists: boolean;
  /** null when the node wrote no results.json */
  results_path: string | null;
  results_sha256: string | null;
  /** tree.json's status; null when the tree does not list the node */
  status: string | null;
  /** false when tree.json says it never ran; null when the tree does not say */
  ran: boolean | null;
  /** one number per measurement (a list's mean), by name as written */
  measurements: Record<string, number>;
  /** every trial of a list, for matching a number a paper quotes from one run */
  trials: Record<string, number[]>;
  /** the numeric metrics tree.json records for it (reserved `_` keys left out) */
  tree_metrics: Record<string, number>;
};

export type RunNodes = { nodes: Map<string, NodeArtifacts>; experimentsDir: string; problems: string[] };

/**
 * Every node of a run: those tree.json lists and those with a work directory under the
 * checkpoint's experiments directory, each with its results.json read and hashed.
 */
export function readRunNodes(checkpointDir: string): RunNodes {
  const experimentsDir = experimentsDirOf(checkpointDir);
  const tree = readTree(checkpointDir);
  const problems = [...tree.problems];
  const recorded = new Map<string, { status: string | null; metrics: Record<string, number> }>();
  for (const node of tree.tree?.nodes ?? []) {
    if (!isSafeId(node.id)) continue;
    const metrics: Record<string, number> = {};
    for (const [k, v] of Object.entries(node.metrics ?? {})) if (!k.startsWith('_') && typeof v === 'number' && Number.isFinite(v)) metrics[k] = v;
    recorded.set(node.id, { status: typeof node.status === 'string' ? node.status : null, metrics });
  }
  const ids = new Set([...recorded.keys(), ...workDirs(experimentsDir)]);
  const nodes = new Map<string, NodeArtifacts>();
  for (const id of [...ids].sort()) {
    const workDir = join(experimentsDir, id);
    const read = readNodeResults(workDir);
    if (read.problem) problems.push(read.problem);
    const resultsPath = join(workDir, RESULTS_FILE);
    const hasResults = isFileAt(resultsPath);
    const trials: Record<string, number[]> = {};
    for (const [k, m] of Object.entries(read.results?.measurements ?? {})) trials[k] = Array.isArray(m) ? m : [m];
    const status = recorded.get(id)?.status ?? null;
    nodes.set(id, {
      node_id: id,
      work_dir: workDir,
      work_dir_exists: statOrNull(workDir)?.isDirectory() ?? false,
      results_path: hasResults ? resultsPath : null,
      results_sha256: hasResults ? hashFileSync(resultsPath).sha256 : null,
      status,
      ran: status === null ? null : RAN.has(status.toLowerCase()),
      measurements: { ...(read.results?.values ?? {}) },
      trials,
      tree_metrics: recorded.get(id)?.metrics ?? {},
    });
  }
  return { nodes, experimentsDir, problems };
}

/** A node's measurements for the contract's expressions: results.json's, else tree.json's metric of that name. */
export function measuredOn(node: NodeArtifacts): Map<string, number> {
  return new Map([...Object.entries(node.tree_metrics), ...Object.entries(node.measurements)]);
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
