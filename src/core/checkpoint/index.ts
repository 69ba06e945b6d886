import { readdirSync, type Stats, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { SvcError } from '../errors.ts';
import { isCheckpointDir } from './locate.ts';
import { isAlive, readPid } from './pid.ts';
import type { CheckpointStatus } from './status.ts';
import { statusWithoutProcess } from './status.ts';
import { summarizeCheckpoint } from './summary.ts';

/** One checkpoint as the dashboard lists it. */
export type CheckpointListEntry = {
  id: string;
  path: string;
  status: CheckpointStatus;
  node_count: number;
  review_score: number | null;
  /** the spec keeps this key and always answers null */
  best_metric: null;
  /** ISO time of the last change of the directory or its tree file */
  mtime: string;
  /** the highest metrics._scientific_score; present only when some node has one */
  best_scientific_score?: number;
  goal: string | null;
  cost: { usd: number; tokens: number } | null;
};

/**
 * Files whose change changes an entry. Creating, removing or renaming one (every atomic write
 * renames) changes the directory's mtime; a rewrite in place changes the file's own stat.
 */
const WATCHED = ['tree.json', 'nodes_tree.json', 'review_report.json', 'cost_summary.json', '.svc_pid', '.ari_pid'];

type Cached = {
  dirSig: string;
  /** signatures of the watched files that existed when the entry was built */
  fileSigs: [file: string, sig: string][];
  /** null: the directory is not a checkpoint */
  entry: CheckpointListEntry | null;
  /** the PID the checkpoint records, checked for life on every call */
  pid: number | null;
};

const roots = new Map<string, Map<string, Cached>>();

/**
 * The checkpoints directly inside `root`, newest name first (names start with a timestamp).
 * Each entry is built once and kept until its directory or one of its watched files changes,
 * so a repeated call costs a few stats per checkpoint; whether a recorded run is still alive
 * is checked on every call. A checkpoint that cannot be read still lists, as far as it can.
 */
export function listCheckpointIndex(root: string): CheckpointListEntry[] {
  const rootAbs = resolve(root);
  const names = readRoot(rootAbs);
  const previous = roots.get(rootAbs) ?? new Map<string, Cached>();
  const current = new Map<string, Cached>();
  const out: CheckpointListEntry[] = [];
  for (const name of names) {
    const dir = join(rootAbs, name);
    const st = statSync(dir, { throwIfNoEntry: false });
    if (!st?.isDirectory()) continue;
    const cached = fresh(previous.get(name), sig(st)) ?? build(dir, sig(st));
    current.set(name, cached);
    if (!cached.entry) continue;
    const running = cached.pid !== null && isAlive(cached.pid);
    out.push(running ? { ...cached.entry, status: 'running' } : cached.entry);
  }
  roots.set(rootAbs, current);
  return out;
}

function readRoot(root: string): string[] {
  try {
    return readdirSync(root)
      .filter((n) => !n.startsWith('.'))
      .sort()
      .reverse();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new SvcError(`cannot read checkpoints directory ${root}: ${(err as Error).message}`);
  }
}

/** The cached entry when neither the directory nor any watched file it had has changed. */
function fresh(cached: Cached | undefined, dirSig: string): Cached | null {
  if (!cached || cached.dirSig !== dirSig) return null;
  for (const [file, was] of cached.fileSigs) {
    const st = statSync(file, { throwIfNoEntry: false });
    if (!st || sig(st) !== was) return null;
  }
  return cached;
}

function build(dir: string, dirSig: string): Cached {
  // signatures first: a write racing with the read below then shows up on the next call
  const fileSigs = WATCHED.flatMap((name): [string, string][] => {
    const st = statSync(join(dir, name), { throwIfNoEntry: false });
    return st ? [[join(dir, name), sig(st)]] : [];
  });
  if (!isCheckpointDir(dir)) return { dirSig, fileSigs, entry: null, pid: null };
  return { dirSig, fileSigs, entry: entryOf(dir), pid: readPid(dir) };
}

function entryOf(dir: string): CheckpointListEntry {
  try {
    const s = summarizeCheckpoint(dir);
    const score = s.best?.score;
    return {
      id: s.id,
      path: s.path,
      status: statusWithoutProcess(s.tree),
      node_count: s.nodes.total,
      review_score: s.review_score,
      best_metric: null,
      mtime: s.modified,
      ...(score === undefined ? {} : { best_scientific_score: score }),
      goal: s.goal,
      cost: s.cost && { usd: s.cost.usd, tokens: s.cost.tokens },
    };
  } catch {
    // the directory itself could not be read (permissions, I/O error): listed, marked unreadable
    return { id: basename(dir), path: dir, status: 'unreadable', node_count: 0, review_score: null, best_metric: null, mtime: new Date(0).toISOString(), goal: null, cost: null };
  }
}

/** Inode, size and mtime: an atomic rewrite changes the inode even within one timestamp tick. */
function sig(st: Stats): string {
  return `${st.ino}:${st.size}:${st.mtimeMs}`;
}
