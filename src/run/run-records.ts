import { basename } from 'node:path';
import { listCheckpointDirs } from '../core/checkpoint/locate.ts';
import { runningPid } from '../core/checkpoint/pid.ts';
import { countNodes, statusWithoutProcess } from '../core/checkpoint/status.ts';
import { readTree } from '../core/checkpoint/tree.ts';
import { InvalidRecordError, NotFoundError, oneLine } from '../core/errors.ts';
import type { RunMeta } from '../schema/checkpoint.ts';
import { runDirOf } from './run-ids.ts';
import { readRunMeta } from './run-meta.ts';

/** One run as the sub-experiment and orchestrator listings show it: its lineage and where it stands. */
export type RunRecord = RunMeta & {
  run_id: string;
  checkpoint_path: string;
  parent_run_id: string | null;
  status: string;
  running: boolean;
  nodes: { total: number; completed: number; running: number; failed: number; pending: number };
  /** what made meta.json unreadable, when it is */
  problem?: string;
};

/** The record of the run in `dir`; a broken meta.json is reported in the record, not thrown, so one bad run does not hide the others. */
export function runRecord(dir: string): RunRecord {
  let meta: RunMeta | null = null;
  let problem: string | undefined;
  try {
    meta = readRunMeta(dir);
  } catch (err) {
    problem = oneLine(err);
  }
  const { tree } = readTree(dir);
  const c = countNodes(tree);
  // the recorded PID is only looked at, never signalled
  const running = runningPid(dir) !== null;
  return {
    ...meta,
    run_id: basename(dir),
    checkpoint_path: dir,
    parent_run_id: meta?.parent_run_id ?? null,
    status: running ? 'running' : statusWithoutProcess(tree),
    running,
    nodes: { total: c.total, completed: c.success, running: c.running, failed: c.failed, pending: c.pending },
    ...(problem ? { problem } : {}),
  };
}

/** Every run of the checkpoints directory, newest first. */
export function listRuns(checkpointsRoot: string): RunRecord[] {
  return listCheckpointDirs(checkpointsRoot).map(runRecord);
}

/** GET /api/sub-experiments: runs whose meta.json names a parent; only theirs are read further. */
export function listSubExperiments(checkpointsRoot: string): RunRecord[] {
  return listCheckpointDirs(checkpointsRoot).filter(namesParent).map(runRecord);
}

/** Whether the run in `dir` names a parent in its meta.json; an unreadable one does not. */
function namesParent(dir: string): boolean {
  try {
    return Boolean(readRunMeta(dir)?.parent_run_id);
  } catch {
    return false;
  }
}

/** GET /api/sub-experiments/<run_id>: a run that is no sub-experiment is not found as one. */
export function getSubExperiment(checkpointsRoot: string, runId: string): RunRecord {
  const record = runRecord(runDirOf(checkpointsRoot, runId));
  // whether it is a sub-experiment is in the record that cannot be read: say that, not "no"
  if (record.problem) throw new InvalidRecordError(record.problem, 'fix or remove its meta.json');
  if (!record.parent_run_id) throw new NotFoundError(`run '${runId}' is not a sub-experiment`, 'its checkpoint has no meta.json naming a parent');
  return record;
}

/** The children of `runId`: runs whose meta.json names it as parent. */
export function listChildren(checkpointsRoot: string, runId: string): RunRecord[] {
  runDirOf(checkpointsRoot, runId);
  return listRuns(checkpointsRoot).filter((r) => r.parent_run_id === runId);
}
