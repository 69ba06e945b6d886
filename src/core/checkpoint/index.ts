import { readdirSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { SvcError } from '../errors.ts';
import { type CheckpointListEntry, type IndexRecord, loadIndex, saveIndex } from './index-file.ts';
import { CLAIM_GATE_REPORTS } from './claim-gate-status.ts';
import { isCheckpointDir } from './locate.ts';
import { resolveInside, statOrNull } from '../paths.ts';
import { isAlive, readPid } from './pid.ts';
import { isUnchanged, takeSnapshot, treeJsonSuffices, unwatch } from './snapshot.ts';
import { statusWithoutProcess } from './status.ts';
import { summarizeCheckpoint } from './summary.ts';
import { readTreeOutline } from './tree.ts';
import { compiledCheck, readRecord } from './records.ts';
import { RunMeta } from '../../schema/checkpoint.ts';
import { recordCheckCode } from '../../schema/record-check.ts' with { type: 'macro' };

const isRunMeta = compiledCheck(recordCheckCode('RunMeta'));

export type { CheckpointListEntry };


/**
 * Files whose change changes an entry, besides the directory itself. `evaluation` is watched as a
 * directory: a gate report written there changes it, not the checkpoint's own directory.
 */
const WATCHED = ['tree.json', 'nodes_tree.json', 'meta.json', 'review_report.json', 'cost_summary.json', 'reproducibility_report.json', 'evaluation', ...CLAIM_GATE_REPORTS, '.svc_pid', '.ari_pid'];

const roots = new Map<string, Map<string, IndexRecord>>();

/**
 * The checkpoints directly inside `root`, newest name first (names start with a timestamp).
 * Each entry is built once and kept until its directory or one of its watched files changes,
 * so a repeated call costs a few stats per checkpoint; whether a recorded run is still alive
 * is checked on every call. A checkpoint that cannot be read still lists, as far as it can.
 * The entries are kept on disk too (see index-file.ts), so that a new process starts from
 * those of the last one instead of reading every checkpoint again.
 */
export function listCheckpointIndex(root: string): CheckpointListEntry[] {
  const rootAbs = resolve(root);
  const names = readRoot(rootAbs);
  const previous = roots.get(rootAbs) ?? loadIndex(rootAbs);
  const current = new Map<string, IndexRecord>();
  const out: CheckpointListEntry[] = [];
  let built = false;
  for (const name of names) {
    const dir = join(rootAbs, name);
    const st = statOrNull(dir);
    if (!st?.isDirectory()) continue;
    const known = previous.get(name);
    const unchanged = known !== undefined && isUnchanged(known.snapshot, st);
    const record = unchanged ? known : build(dir, st);
    built ||= !unchanged;
    current.set(name, record);
    if (!record.entry) continue;
    const running = record.pid !== null && isAlive(record.pid);
    out.push(running ? { ...record.entry, status: 'running' } : record.entry);
  }
  roots.set(rootAbs, current);
  // every record kept came from `previous`: without a new one, only a removal changes the set
  if (built || current.size !== previous.size) saveIndex(rootAbs, current);
  return out;
}

/** A run's directory name: `<timestamp>_<slug>` (the reference's rule); anything else in the directory is not a run. */
const RUN_NAME = /^\d{8,14}_/;

function readRoot(root: string): string[] {
  try {
    return readdirSync(root)
      .filter((n) => RUN_NAME.test(n))
      .sort()
      .reverse();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new SvcError(`cannot read checkpoints directory ${root}: ${(err as Error).message}`);
  }
}

function build(dir: string, dirStat: Stats): IndexRecord {
  // the snapshot first: a write racing with the reads below then shows up on the next call
  const snapshot = takeSnapshot(dir, dirStat, WATCHED);
  if (!isCheckpointDir(dir) || leadsOut(dir)) return { snapshot, entry: null, pid: null };
  const { entry, fromTreeJson } = entryOf(dir);
  // one stat fewer per checkpoint of the reference layout, which writes both tree files
  if (fromTreeJson) unwatch(snapshot, 'nodes_tree.json');
  return { snapshot, entry, pid: readPid(dir) };
}

/** A link in the checkpoints directory to a run elsewhere is not listed: no route would open it. */
function leadsOut(dir: string): boolean {
  try {
    resolveInside(dirname(dir), basename(dir));
    return false;
  } catch {
    return true;
  }
}

function entryOf(dir: string): { entry: CheckpointListEntry; fromTreeJson: boolean } {
  try {
    const s = summarizeCheckpoint(dir, readTreeOutline);
    const fromTreeJson = treeJsonSuffices(dir, { file: s.tree_file, problems: s.problems });
    const score = s.best?.score;
    const entry: CheckpointListEntry = {
      id: s.id,
      path: s.path,
      status: statusWithoutProcess(s.tree),
      node_count: s.nodes.total,
      review_score: s.review_score,
      claim_gate: s.claim_gate,
      best_metric: null,
      mtime: s.modified,
      ...(score === undefined ? {} : { best_scientific_score: score }),
      goal: s.goal,
      cost: s.cost && { usd: s.cost.usd, tokens: s.cost.tokens },
      reproducibility_score: s.reproduction?.ors_score ?? null,
      // a broken meta.json is the sub-experiment listing's to report; here the run is listed without a parent
      parent_run_id: readRecord(dir, 'meta.json', RunMeta, [], isRunMeta)?.parent_run_id ?? null,
    };
    return { entry, fromTreeJson };
  } catch {
    // the directory itself could not be read (permissions, I/O error): listed, marked unreadable
    const entry: CheckpointListEntry = { id: basename(dir), path: dir, status: 'unreadable', node_count: 0, review_score: null, claim_gate: null, best_metric: null, mtime: new Date(0).toISOString(), goal: null, cost: null, reproducibility_score: null, parent_run_id: null };
    return { entry, fromTreeJson: false };
  }
}
