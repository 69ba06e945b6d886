import { join, relative } from 'node:path';
import { InputError, NotFoundError } from '../errors.ts';
import { isSafeId, resolveInside, statOrNull } from '../paths.ts';
import { experimentsDirOf, workspaceOf } from '../workspace.ts';

/**
 * Run records that the run copies around but that are not a node's own work; the per-node file
 * view hides them (the reference implementation's META_FILES, with svc's own names added).
 */
const NODE_META_FILES = new Set([
  'experiment.md',
  'launch_config.json',
  'meta.json',
  'tree.json',
  'nodes_tree.json',
  'bfts_tree.json',
  'results.json',
  'idea.json',
  'cost_trace.jsonl',
  'cost_summary.json',
  'prompt_trace.jsonl',
  'prompt_versions.json',
  'workflow.yaml',
  '.svc_pid',
  '.ari_pid',
  '.pipeline_started',
  'evaluation_criteria.json',
  'viz_access.jsonl',
  'memory_access.jsonl',
  'memory_access.summary.json',
  'node_report.json',
  'llm_cassette.jsonl',
  'lineage_decisions.jsonl',
  'memory_backup.jsonl.gz',
  'model_prices.yaml',
  'settings.json',
  // the Slurm allocations the run's nodes hold: which nodes hold them when another starts is timing
  'slurm_allocations.json',
]);

export function isNodeMetaFile(name: string): boolean {
  return NODE_META_FILES.has(name) || name.endsWith('.log') || /^(memory|viz)_access\..+\.jsonl$/.test(name);
}

/**
 * The work directory of node `nodeId` of a checkpoint: `<workspace>/experiments/<run_id>/<node_id>`.
 * A node id is a name, never a path; a node that has none is not found.
 */
export function nodeWorkDir(checkpointDir: string, nodeId: string): string {
  if (!isSafeId(nodeId)) {
    throw new InputError(`node id '${nodeId}' is not a node id`, 'node ids are names such as node_1a2b3c4d, without slashes or ..');
  }
  const experiments = servedExperimentsDir(checkpointDir);
  // the id is a plain name, so joining it cannot leave the experiments directory; a link can
  const dir = join(experiments, nodeId);
  if (!statOrNull(dir)?.isDirectory()) throw new NotFoundError(`node ${nodeId} has no work directory`, `looked for ${dir}`);
  return resolveInside(experiments, nodeId, 'node work directory');
}

/**
 * `<workspace>/experiments/<run_id>` of a checkpoint, for serving its files: refused when it (or
 * `experiments/`) is a link leading out of the workspace, whose files are no run's to hand out.
 */
export function servedExperimentsDir(checkpointDir: string): string {
  const workspace = workspaceOf(checkpointDir);
  const dir = experimentsDirOf(checkpointDir);
  try {
    return resolveInside(workspace, relative(workspace, dir), 'experiments directory');
  } catch {
    throw new InputError(`the experiments directory ${dir} is a link leading out of the workspace ${workspace}; its files are not served`, 'keep experiments/ inside the workspace (move the whole workspace instead of linking experiments/)');
  }
}
