import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TooLargeError } from '../core/errors.ts';
import { isFileAt, statOrNull } from '../core/paths.ts';
import { ensureCheckpointAgent } from './checkpoint-agent.ts';
import { BACKUP_FILE, type BackupLine, type ReadTally, readBackupLines, recordToLine } from './backup-format.ts';
import type { MemoryClient } from './client.ts';
import { type ImportTally, importLines } from './restore-import.ts';

/** Node memory of the reference implementation's file-based era: one JSON object a line. */
export const LEGACY_NODE_FILE = 'memory_store.jsonl';
/** Its ReAct trace (the file memory client's store): one JSON array of {content, metadata, ts}. */
export const LEGACY_REACT_FILE = 'memory.json';
/** The legacy trace is one JSON document and has to be parsed whole. */
const MAX_LEGACY_REACT_BYTES = 256 * 1024 * 1024;

export type MigrateSource = ReadTally & {
  file: string;
  /** entries by kind, react_step included even when not imported */
  kinds: Record<string, number>;
};

export type MigrateReport = {
  checkpoint: string;
  dry_run: boolean;
  react: boolean;
  sources: MigrateSource[];
  /** react_step entries left out (without --react) */
  excluded: number;
  /** what the import did; absent on a dry run and when there was nothing to import */
  imported?: ImportTally & { agent_id: string };
};

/**
 * Import a checkpoint's file-based memory into the backend: its memory_backup.jsonl.gz and the
 * legacy memory_store.jsonl (node entries) and, with `react`, memory.json (the ReAct trace; a
 * backup's react_step lines are left out too without it). Entries already in the agent are
 * skipped, so running it twice adds nothing. The files are left as they are. A dry run only
 * reads them and needs no backend.
 */
export async function migrateCheckpointMemory(client: MemoryClient | null, checkpointDir: string, opts: { react: boolean; dryRun: boolean }): Promise<MigrateReport> {
  const report: MigrateReport = { checkpoint: checkpointDir, dry_run: opts.dryRun, react: opts.react, sources: [], excluded: 0 };
  const readers = sourcesOf(checkpointDir, opts.react);
  // every pass re-reads the files; the report keeps the last pass's counts
  const lines = async function* (): AsyncGenerator<BackupLine> {
    report.sources = [];
    report.excluded = 0;
    for (const { file, read } of readers) {
      const source: MigrateSource = { file, lines: 0, skipped: 0, damage: null, kinds: {} };
      report.sources.push(source);
      for await (const line of read(source)) {
        source.kinds[line.kind] = (source.kinds[line.kind] ?? 0) + 1;
        if (line.kind === 'react_step' && !opts.react) report.excluded++;
        else yield line;
      }
    }
  };
  if (opts.dryRun || client === null || readers.length === 0) {
    for await (const _ of lines()) {
      // counting only
    }
    return report;
  }
  const agentId = await ensureCheckpointAgent(client, checkpointDir);
  const tally = await importLines(client, agentId, lines, 'skip');
  return { ...report, imported: { agent_id: agentId, ...tally } };
}

type Reader = { file: string; read: (tally: ReadTally) => AsyncIterable<BackupLine> };

function sourcesOf(dir: string, react: boolean): Reader[] {
  const out: Reader[] = [];
  const backup = join(dir, BACKUP_FILE);
  if (isFileAt(backup)) out.push({ file: BACKUP_FILE, read: (t) => readBackupLines(backup, t, { gzip: true }) });
  const nodes = join(dir, LEGACY_NODE_FILE);
  if (isFileAt(nodes)) out.push({ file: LEGACY_NODE_FILE, read: (t) => readBackupLines(nodes, t, { gzip: false, defaultKind: 'node_scope' }) });
  const trace = join(dir, LEGACY_REACT_FILE);
  if (react && isFileAt(trace)) out.push({ file: LEGACY_REACT_FILE, read: (t) => readLegacyTrace(trace, t) });
  return out;
}

async function* readLegacyTrace(file: string, tally: ReadTally): AsyncGenerator<BackupLine> {
  if ((statOrNull(file)?.size ?? 0) > MAX_LEGACY_REACT_BYTES) throw new TooLargeError(`${file} is larger than ${MAX_LEGACY_REACT_BYTES / 1024 / 1024} MB`);
  let items: unknown;
  try {
    items = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    tally.damage = `not valid JSON (${(err as Error).message})`;
    return;
  }
  if (!Array.isArray(items)) {
    tally.damage = 'not a JSON array';
    return;
  }
  for (const item of items) {
    tally.lines++;
    const line = recordToLine(item, 'react_step');
    if (line === null) tally.skipped++;
    else yield line;
  }
}
