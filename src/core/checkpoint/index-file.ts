import { rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { version } from '../../../package.json';
import { writeFileAtomic } from '../atomic.ts';
import { readTextOrNull, statOrNull } from '../paths.ts';
import { parseLine } from '../json-object.ts';
import { isMapping } from '../values.ts';
import type { ClaimGateStatus } from './claim-gate-status.ts';
import type { CheckpointStatus } from './status.ts';
import type { Snapshot } from './snapshot.ts';
import { log } from '../log.ts';

/** One checkpoint as the dashboard lists it. */
export type CheckpointListEntry = {
  id: string;
  path: string;
  status: CheckpointStatus;
  node_count: number;
  review_score: number | null;
  claim_gate: ClaimGateStatus | null;
  /** the spec keeps this key and always answers null */
  best_metric: null;
  /** ISO time of the last change of the directory or its tree file */
  mtime: string;
  /** the highest metrics._scientific_score; present only when some node has one */
  best_scientific_score?: number;
  goal: string | null;
  cost: { usd: number; tokens: number } | null;
  /** the ORS score of the graded reproduction (reproducibility_report.json); null when there is none */
  reproducibility_score: number | null;
  /** the run this one is a sub-experiment of, from its meta.json; null for a top-level run */
  parent_run_id: string | null;
};

/** One checkpoint directory as the index knows it; see listCheckpointIndex. */
export type IndexRecord = {
  snapshot: Snapshot;
  /** null: the directory is not a checkpoint */
  entry: CheckpointListEntry | null;
  /** the PID the checkpoint records, checked for life on every call */
  pid: number | null;
};

/**
 * The layout of the file. Another format, or another svc version (whose summaries may read a
 * checkpoint differently), is not trusted: the index is then rebuilt from the checkpoints.
 */
const FORMAT = 4;

type IndexFile = { format: number; svc: string; root: string; checkpoints: Record<string, IndexRecord> };

/**
 * A dot-file in the checkpoints directory itself, which no listing of runs takes for one. Not in
 * the workspace's `.svc`: creating that directory would make the workspace look like a project
 * root to svc commands run inside it.
 */
export function indexFile(root: string): string {
  return join(root, '.svc-index.json');
}

/** Roots whose index could not be written: this process no longer tries. */
const unwritable = new Set<string>();

/**
 * The records a previous process kept for `root`, by directory name. A file that is missing,
 * unreadable, damaged, of another format or version, or written for another root gives none.
 */
export function loadIndex(root: string): Map<string, IndexRecord> {
  const stored = parseLine(readTextOrNull(indexFile(root)) ?? '');
  // a workspace moved elsewhere keeps its inodes but not the paths the entries hold
  if (!isMapping(stored) || stored.format !== FORMAT || stored.svc !== version || stored.root !== root || !isMapping(stored.checkpoints)) return new Map();
  const records = new Map<string, IndexRecord>();
  for (const [name, record] of Object.entries(stored.checkpoints)) if (isRecord(name, record)) records.set(name, record);
  return records;
}

/**
 * Replaces the file with `records`. The index is only a cache of the checkpoints: where it cannot
 * be written, listing goes on without it, and the write skips the fsyncs (a crash leaves the old
 * file or the new one whole, and an outdated one is caught by the snapshots).
 */
export function saveIndex(root: string, records: Map<string, IndexRecord>): void {
  // a checkpoints directory removed meanwhile is not created again for its index
  if (unwritable.has(root) || !statOrNull(root)?.isDirectory()) return;
  const file = indexFile(root);
  const stored: IndexFile = { format: FORMAT, svc: version, root, checkpoints: Object.fromEntries(records) };
  try {
    // an empty directory in the file's place is left from damage; anything else is not ours to remove
    if (statOrNull(file)?.isDirectory()) rmdirSync(file);
    writeFileAtomic(file, JSON.stringify(stored), 0o644, false);
  } catch (err) {
    unwritable.add(root);
    log.debug(`checkpoint index not kept in ${file}: ${(err as Error).message}`);
  }
}

function isRecord(name: string, v: unknown): v is IndexRecord {
  if (!isMapping(v) || !isMapping(v.snapshot)) return false;
  const { dir, files, racy } = v.snapshot;
  const snapshotOk = typeof dir === 'string' && typeof racy === 'boolean' && Array.isArray(files) && files.every(isFileSig);
  const entryOk = v.entry === null || (isMapping(v.entry) && v.entry.id === name && typeof v.entry.path === 'string');
  const pidOk = v.pid === null || (Number.isSafeInteger(v.pid) && (v.pid as number) > 0);
  return snapshotOk && entryOk && pidOk;
}

function isFileSig(f: unknown): boolean {
  return Array.isArray(f) && f.length === 2 && typeof f[0] === 'string' && typeof f[1] === 'string';
}
