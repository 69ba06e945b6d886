import { createHash } from 'node:crypto';
import { isMapping } from '../core/values.ts';
import type { Passage } from './client.ts';

/** The file a checkpoint's memory snapshot lives in (the reference implementation's name). */
export const BACKUP_FILE = 'memory_backup.jsonl.gz';

type Json = Record<string, unknown>;

/**
 * One archival entry as a backup line. The reference format has `node_scope` lines
 * `{kind, node_id, text, metadata, ts}` and `react_step` lines `{kind, text, metadata, ts}`;
 * the typed kinds (experiment_result, failure_case, ...) are written like node_scope lines.
 * `entry_id` and `tags` are ours: the reference reader ignores them, and they let a restore
 * recognise an entry and keep tags beyond the node and kind.
 */
export type EntryLine = {
  kind: string;
  node_id?: string;
  text: string;
  metadata: Json;
  /** epoch seconds, as the reference writes it */
  ts: number;
  entry_id?: string;
  tags?: string[];
};

/** The agent's core memory blocks: persona and human as text, context as an object. */
export type CoreSeedLine = { kind: 'core_seed'; persona: string; human: string; context: Json; seeded_at: number };

export type BackupLine = EntryLine | CoreSeedLine;

/** Labels of the core memory blocks a core_seed line holds; the context block holds JSON. */
export const CORE_BLOCKS = ['persona', 'human', 'context'] as const;

/** The context block holds a JSON object; any other text is kept under `value`. */
export function parseContextBlock(raw: string | null): Json {
  if (raw === null || raw === '') return {};
  try {
    const v: unknown = JSON.parse(raw);
    if (isMapping(v)) return v;
  } catch {
    // not JSON: kept as text below
  }
  return { value: raw };
}

const NODE_TAG = 'node:';
const KIND_TAG = 'kind:';

/** A passage of the backend as the backup line that restores it. */
export function passageToLine(p: Passage): EntryLine {
  const kind = tagValue(p.tags, KIND_TAG) ?? stringOr(p.metadata.kind) ?? 'node_scope';
  const node = tagValue(p.tags, NODE_TAG) ?? stringOr(p.metadata.node_id);
  const ts = typeof p.metadata.ts === 'number' ? p.metadata.ts : Date.parse(p.created_at) / 1000;
  const line: EntryLine = { kind, text: p.text, metadata: p.metadata, ts: Number.isFinite(ts) ? ts : 0, entry_id: p.id, tags: p.tags };
  if (node === undefined) return line;
  // the reference keeps a react step's node in its metadata, not on the line
  if (kind === 'react_step') return 'node_id' in p.metadata ? line : { ...line, metadata: { ...p.metadata, node_id: node } };
  return { kind, node_id: node, ...withoutKind(line) };
}

/**
 * A backup line as the passage to add: tags say the node and kind (added when the line has
 * none, as reference lines do not); the line's ts goes into the metadata when that has none,
 * because the backend stamps its own creation time.
 */
export function lineToPassage(line: EntryLine): { text: string; tags: string[]; metadata: Json } {
  const node = nodeOfLine(line);
  const tags = new Set(line.tags ?? []);
  tags.add(`${KIND_TAG}${line.kind}`);
  if (node !== null) tags.add(`${NODE_TAG}${node}`);
  const metadata = 'ts' in line.metadata ? line.metadata : { ...line.metadata, ts: line.ts };
  return { text: line.text, tags: [...tags], metadata };
}

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
  const n = line.node_id ?? stringOr(line.metadata.node_id);
  return n === undefined || n === '' ? null : n;
}

/** The node of a stored passage, by the same rule. */
export function nodeOfPassage(p: Passage): string | null {
  const n = tagValue(p.tags, NODE_TAG) ?? stringOr(p.metadata.node_id);
  return n === undefined || n === '' ? null : n;
}

/**
 * What makes two entries the same: their node and the SHA-256 of their text. The kind is not
 * part of it: a text written twice for one node is one memory.
 */
export function contentKey(node: string | null, text: string): string {
  return `${node ?? ''}\u0000${createHash('sha256').update(text).digest('hex')}`;
}

function withoutKind(line: EntryLine): Omit<EntryLine, 'kind'> {
  const { kind: _kind, ...rest } = line;
  return rest;
}

function tagValue(tags: string[], prefix: string): string | undefined {
  const t = tags.find((x) => x.startsWith(prefix));
  return t === undefined ? undefined : t.slice(prefix.length);
}

function stringOr(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}


/** Legacy entries stamp ISO times; a line without a usable time gets 0. */
function parseTs(v: unknown): number {
  const ms = typeof v === 'string' ? Date.parse(v) : Number.NaN;
  return Number.isFinite(ms) ? ms / 1000 : 0;
}
