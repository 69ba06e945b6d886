import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { NODE_REPORT_FILE } from '../core/checkpoint/node-report.ts';
import { readTree } from '../core/checkpoint/tree.ts';
import { InputError, NotFoundError, oneLine } from '../core/errors.ts';
import { isSafeId } from '../core/paths.ts';
import { experimentsDirOf } from '../core/workspace.ts';
import type { NodeRecord } from '../schema/checkpoint.ts';
import { diffFiles, type FilesChanged } from './files-diff.ts';
import { fromRunEnv, fromTrace } from './recover.ts';
import { buildReport, writeReport } from './report.ts';

export type MigrateResult = {
  written: string[];
  /** reports kept, and pending nodes (never run, no work directory) */
  skipped: string[];
  /** node id and why, one line */
  failed: { node_id: string; error: string }[];
};

/**
 * Rebuilds the node_report.json of every node of a checkpoint from tree.json and the work
 * directories on disk, marked `migration_source: "auto"`: the start time and machine from the
 * node's _run_env.json, the tool counts and commands from its trace_log; what is not on disk any
 * more (the judge's reason, a lost trace) is null. A report already there is kept unless `overwrite`.
 */
export function migrateNodeReports(checkpointDir: string, opts: { overwrite?: boolean } = {}): MigrateResult {
  if (!statSync(checkpointDir, { throwIfNoEntry: false })?.isDirectory()) throw new NotFoundError(`no checkpoint directory ${checkpointDir}`, 'give the path of a run checkpoint');
  const { tree, file, problems } = readTree(checkpointDir);
  if (!tree) throw new InputError(`${checkpointDir} has no readable node tree${problems.length ? `: ${problems.join('; ')}` : ''}`, 'migrate a checkpoint that has tree.json');
  const experiments = experimentsDirOf(checkpointDir);
  const byId = new Map(tree.nodes.map((n) => [n.id, n]));
  const out: MigrateResult = { written: [], skipped: [], failed: [] };
  for (const node of tree.nodes) {
    if (!isSafeId(node.id)) {
      out.failed.push({ node_id: node.id, error: `node id in ${file} is not a directory name` });
      continue;
    }
    const workDir = join(experiments, node.id);
    if (!statSync(workDir, { throwIfNoEntry: false })?.isDirectory()) {
      // a node that never ran has no directory and nothing to report
      if (node.status === 'pending') out.skipped.push(node.id);
      else out.failed.push({ node_id: node.id, error: `no work directory ${workDir}` });
      continue;
    }
    if (existsSync(join(workDir, NODE_REPORT_FILE)) && !opts.overwrite) {
      out.skipped.push(node.id);
      continue;
    }
    try {
      const { error } = writeReport(workDir, node.id, () => rebuild(node, workDir, experiments, byId));
      if (error) out.failed.push({ node_id: node.id, error });
      else out.written.push(node.id);
    } catch (err) {
      out.failed.push({ node_id: node.id, error: oneLine(err) });
    }
  }
  return out;
}

function rebuild(node: NodeRecord, workDir: string, experiments: string, byId: Map<string, NodeRecord>): Record<string, unknown> {
  const parentId = node.parent_id ?? null;
  const parent = parentId === null ? null : byId.get(parentId);
  const parentDir = parentId !== null && isSafeId(parentId) ? join(experiments, parentId) : null;
  // the parent's files can be compared only while its directory exists
  const comparable = parentId === null || (parentDir !== null && statSync(parentDir, { throwIfNoEntry: false })?.isDirectory() === true);
  const fc: FilesChanged | null = comparable ? diffFiles(parentDir, workDir) : null;
  const metrics = node.metrics ?? {};
  const parentScore = parent?.metrics?._scientific_score;
  const env = fromRunEnv(workDir);
  const trace = fromTrace((node as { trace_log?: unknown }).trace_log);
  return buildReport({
    node: { ...node, parent_id: parentId },
    status: node.status ?? 'unknown',
    startedAt: env.startedAt,
    completedAt: node.completed_at ?? null,
    filesChanged: fc,
    workDir,
    whatWasDone: node.eval_summary ?? null,
    metrics,
    parentScore: typeof parentScore === 'number' ? parentScore : null,
    evaluatorReason: null,
    axisRationales: {},
    commands: trace?.commands ?? null,
    toolCounts: trace?.toolCounts ?? null,
    migrationSource: 'auto',
    executor: env.executor,
    machine: env.machine,
    slurm: { job_id: null, partition: null, nodelist: null },
  });
}
