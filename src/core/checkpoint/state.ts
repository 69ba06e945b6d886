import { basename, join } from 'node:path';
import { EvaluationCriteria, IdeaFile, LaunchConfig, type TreeFile } from '../../schema/checkpoint.ts';
import type { Phase, StateSnapshot } from '../../schema/state.ts';
import { isAlive, readPid } from './pid.ts';
import { memoForTurn } from '../turn-memo.ts';
import { readRecord } from './records.ts';
import { statOrNull } from '../paths.ts';
import { isUnchanged, type Snapshot, takeSnapshot, treeJsonSuffices, unwatch } from './snapshot.ts';
import { countNodes, statusWithoutProcess } from './status.ts';
import { bestNode, costOf } from './summary.ts';
import { readTree } from './tree.ts';

type Model = { provider: string; model: string };

/** The run process the caller itself started for this checkpoint: its PID while it runs, its exit code once it ended. */
export type OwnRun = { pid: number; running: boolean; exitCode: number | null };

/**
 * Files whose content the state depends on, besides the directory itself (see Snapshot). The
 * phase markers .pipeline_started and review_report.json count only by existing, which the
 * directory's mtime tells.
 */
const WATCHED = ['tree.json', 'nodes_tree.json', 'cost_summary.json', 'cost_trace.jsonl', 'launch_config.json', 'idea.json', 'evaluation_criteria.json', '.svc_pid', '.ari_pid'];

/** The parts read from files, and the PID the checkpoint records (its life is checked per call). */
type Cached = { snapshot: Snapshot | null; body: Omit<StateSnapshot, keyof Live>; recordedPid: number | null };
const cache = new Map<string, Cached>();
type Live = Pick<StateSnapshot, 'running_pid' | 'is_running' | 'exit_code' | 'running' | 'pid' | 'status_label'>;

/**
 * The state snapshot of a run, as the dashboard polls it. Without a checkpoint only the live keys
 * are present. The parts read from files are cached until one of them changes; whether the run's
 * process is alive is checked on every call.
 */
export function runState(dir: string | null, defaultModel: () => Model, own?: OwnRun | null): StateSnapshot {
  if (!dir) return live(null, null, 'idle');
  const entry = currentEntry(dir);
  // our own child counts as running from its start, before it has written .svc_pid
  const recorded = entry.recordedPid !== null && aliveThisTurn(entry.recordedPid) ? entry.recordedPid : null;
  const pid = own?.running ? own.pid : recorded;
  // how our child ended; unknown for a run started elsewhere, and moot while one runs
  const exitCode = pid === null && own && !own.running ? own.exitCode : null;
  const status = pid !== null ? 'running' : (entry.body.status ?? 'new');
  const label = pid !== null ? `running: ${entry.body.phase}` : exitCode !== null && exitCode !== 0 ? `${status} (exit code ${exitCode})` : status;
  const model = entry.body.model?.provider && entry.body.model.model ? entry.body.model : withDefaults(entry.body.model, defaultModel);
  return { ...live(pid, exitCode, label), ...entry.body, model, status };
}

/** The launch record's model where it has one, the configuration's otherwise. */
function withDefaults(recorded: Model | undefined, defaultModel: () => Model): Model {
  const d = defaultModel();
  return { provider: recorded?.provider || d.provider, model: recorded?.model || d.model };
}

/** /state is the dashboard's most frequent call: while nothing changes, a poll costs a few stats, once per turn. */
const currentEntry = memoForTurn((dir: string): Cached => {
  const entry = cache.get(dir);
  if (entry && isCurrent(dir)) return entry;
  const st = statOrNull(dir);
  // the snapshot first: a write racing with the reads below then shows up on the next call
  const snapshot = st && takeSnapshot(dir, st, WATCHED);
  const read = readTree(dir);
  if (snapshot && treeJsonSuffices(dir, read)) unwatch(snapshot, 'nodes_tree.json');
  const fresh = { snapshot, body: readState(dir, read.tree), recordedPid: readPid(dir) };
  cache.set(dir, fresh);
  return fresh;
});
const aliveThisTurn = memoForTurn(isAlive);

function isCurrent(dir: string): boolean {
  const snapshot = cache.get(dir)?.snapshot;
  const st = statOrNull(dir);
  return !!snapshot && !!st && isUnchanged(snapshot, st);
}

function live(pid: number | null, exitCode: number | null, label: string): Live {
  return { running_pid: pid, is_running: pid !== null, exit_code: exitCode, running: pid !== null, pid, status_label: label };
}

function readState(dir: string, tree: TreeFile | null): Omit<StateSnapshot, keyof Live> {
  const problems: string[] = [];
  const c = countNodes(tree);
  const launch = readRecord(dir, 'launch_config.json', LaunchConfig, problems);
  const cost = costOf(dir, problems);
  const criteria = readRecord(dir, 'evaluation_criteria.json', EvaluationCriteria, problems);
  const metric = criteria?.primary_metric || readRecord(dir, 'idea.json', IdeaFile, problems)?.primary_metric || null;
  const best = bestNode(tree?.nodes ?? [], metric);
  return {
    checkpoint_id: basename(dir),
    checkpoint_path: dir,
    status: statusWithoutProcess(tree),
    phase: phaseOf(dir, tree !== null && tree.nodes.length > 0),
    nodes: { total: c.total, completed: c.success, running: c.running, failed: c.failed, pending: c.pending },
    // what the run was launched with; the rest is filled in per call from the configuration, which can change
    model: { provider: launch?.llm_provider || '', model: launch?.llm_model || '' },
    ...(cost ? { cost: { usd: cost.usd, tokens: cost.tokens, calls: cost.calls } } : {}),
    best: best && { id: best.id, score: best.score, metric: best.metric, value: best.value },
    updated_at: new Date().toISOString(),
  };
}

/** The furthest phase the run has reached, from the files each phase leaves. */
function phaseOf(dir: string, hasNodes: boolean): Phase {
  if (statOrNull(join(dir, 'review_report.json'))) return 'review';
  if (statOrNull(join(dir, '.pipeline_started'))) return 'paper';
  if (hasNodes) return 'bfts';
  if (statOrNull(join(dir, 'idea.json'))) return 'idea';
  return 'idle';
}
