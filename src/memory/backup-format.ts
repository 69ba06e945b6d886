import { isMapping } from '../core/values.ts';

/** The file a checkpoint's memory snapshot lives in (the reference implementation's name). */
export const BACKUP_FILE = 'memory_backup.jsonl.gz';

export type Json = Record<string, unknown>;

/**
 * One archival entry as a backup line. The reference format has `node_scope` lines
 * `{kind, node_id, text, metadata, ts}` and `react_step` lines `{kind, text, metadata, ts}`
 * (a step's node, if any, in its metadata); the typed kinds (experiment_result, failure_case, ...)
 * are written like node_scope lines. `entry_id` and `tags` are ours: the reference reader ignores
 * them, and they let a restore recognise an entry and keep tags beyond the node and kind.
 */
export type EntryLine = {
  kind: string;
  node_id?: string;
  text: string;
  /** the entry's own metadata */
  metadata: Json;
  /** epoch seconds, as the reference writes it */
  ts: number;
  entry_id?: string;
  tags?: string[];
};

/** The agent's core memory: persona and human as text, the experiment context as an object. */
export type CoreSeedLine = { kind: 'core_seed'; persona: string; human: string; context: Json; seeded_at: number };

export type BackupLine = EntryLine | CoreSeedLine;

/**
 * A line read from a backup, checked: an entry needs a kind and a text, a core_seed its blocks.
 * Anything else (a fragment cut off by a crash, another program's line) is null. Legacy memory
 * files have no kind: `defaultKind` stands in for it.
 */
export function parseBackupLine(raw: string, defaultKind?: string): BackupLine | null {
  try {
    return recordToLine(JSON.parse(raw), defaultKind);
  } catch {
    return null;
  }
}

/** parseBackupLine for a record already parsed (a legacy file holding one JSON array). */
export function recordToLine(v: unknown, defaultKind?: string): BackupLine | null {
  if (!isMapping(v)) return null;
  const kind = stringOr(v.kind) ?? defaultKind;
  if (kind === undefined) return null;
  if (kind === 'core_seed') {
    return { kind: 'core_seed', persona: stringOr(v.persona) ?? '', human: stringOr(v.human) ?? '', context: isMapping(v.context) ? v.context : {}, seeded_at: typeof v.seeded_at === 'number' ? v.seeded_at : 0 };
  }
  // legacy files call the text `content`
  const text = stringOr(v.text) ?? stringOr(v.content);
  if (text === undefined) return null;
  const line: EntryLine = { kind, text, metadata: isMapping(v.metadata) ? v.metadata : {}, ts: typeof v.ts === 'number' ? v.ts : parseTs(v.ts) };
  const node = stringOr(v.node_id);
  if (node !== undefined && node !== '') line.node_id = node;
  const id = stringOr(v.entry_id) ?? stringOr(v.id);
  if (id !== undefined) line.entry_id = id;
  if (Array.isArray(v.tags)) line.tags = v.tags.filter((t): t is string => typeof t === 'string');
  return line;
}

/** The node an entry belongs to: the line's node_id, else its metadata's (react steps), else none. */
export function nodeOfLine(line: EntryLine): string | null {
  return nonEmpty(line.node_id ?? stringOr(line.metadata.node_id));
}

export function stringOr(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function nonEmpty(s: string | undefined): string | null {
  return s === undefined || s === '' ? null : s;
}

/** Legacy entries stamp ISO times; a line without a usable time gets 0. */
function parseTs(v: unknown): number {
  const ms = typeof v === 'string' ? Date.parse(v) : Number.NaN;
  return Number.isFinite(ms) ? ms / 1000 : 0;
}
