// The memory backup file: gzipped JSON lines, an archival entry or the core memory on each. This
// module is the one that reads and writes it, so the run, a restore, a migration and the
// dashboard agree on what a line is and which node it belongs to.
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { constants, createGunzip, createGzip, gunzipSync } from 'node:zlib';
import { writeStreamAtomic } from '../core/atomic.ts';
import { TooLargeError } from '../core/errors.ts';
import { parseLine } from '../core/json-object.ts';
import { isMapping } from '../core/values.ts';

/** The file a checkpoint's memory snapshot lives in (the reference implementation's name). */
export const BACKUP_FILE = 'memory_backup.jsonl.gz';

/** A backup unpacking to more than this is refused by the whole-file reader rather than held in memory. */
const MAX_BACKUP_BYTES = 32 * 1024 * 1024;

export type Json = Record<string, unknown>;

/**
 * One archival entry as a backup line. The reference format has `node_scope` lines
 * `{kind, node_id, text, metadata, ts}` and `react_step` lines `{kind, text, metadata, ts}`
 * (a step's node, if any, in its metadata); the typed kinds (experiment_result, failure_case, ...)
 * are written like node_scope lines. `entry_id`, `tags` and `vector` are ours: the reference reader
 * ignores them; they let a restore recognise an entry, keep tags beyond the node and kind, and
 * keep its vector instead of embedding the text again.
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
  /** the passage's vector (svc's server with an embedding model): the model, and base64 of its little-endian Float32 values */
  vector?: { model: string; data: string };
};

/** The agent's core memory: persona and human as text, the experiment context as an object. */
export type CoreSeedLine = { kind: 'core_seed'; persona: string; human: string; context: Json; seeded_at: number };

export type BackupLine = EntryLine | CoreSeedLine;

/**
 * Writes the lines as a backup, streamed through gzip into a temp file that replaces `file` only
 * when complete: a source that fails mid-way leaves the previous backup intact.
 */
export async function writeBackupFile(file: string, lines: AsyncIterable<BackupLine>): Promise<void> {
  async function* text(): AsyncGenerator<string> {
    for await (const line of lines) yield `${JSON.stringify(line)}\n`;
  }
  await writeStreamAtomic(file, text(), createGzip());
}

/** How reading a backup went: lines that were not records, and where the archive broke off. */
export type ReadTally = { lines: number; skipped: number; damage: string | null };

/**
 * The lines of a (possibly gzipped) JSON-lines file, checked, streamed so a large backup never
 * sits in memory whole. A damaged file gives what is readable: a line that is not a record is
 * counted in `tally.skipped`, and a truncated or corrupt archive ends the stream with
 * `tally.damage` set (its last, partial line counted as skipped) instead of throwing. Legacy
 * memory files have no kind: `defaultKind` stands in for it.
 */
export async function* readBackupLines(file: string, tally: ReadTally, opts: { gzip: boolean; defaultKind?: string }): AsyncGenerator<BackupLine> {
  const raw = createReadStream(file);
  let source: Readable = raw;
  if (opts.gzip) {
    // a truncated archive still yields what was complete, then fails with 'unexpected end of file'
    const gunzip = createGunzip();
    raw.on('error', (err) => gunzip.destroy(err));
    source = raw.pipe(gunzip);
  }
  const take = function* (text: string): Generator<BackupLine> {
    for (const record of records(text)) {
      tally.lines++;
      const line = record === null ? null : recordToLine(record, opts.defaultKind);
      if (line === null) tally.skipped++;
      else yield line;
    }
  };
  let rest = '';
  const decoder = new TextDecoder();
  try {
    for await (const chunk of source) {
      const text = rest + decoder.decode(chunk as Uint8Array, { stream: true });
      const cut = text.lastIndexOf('\n');
      rest = text.slice(cut + 1);
      yield* take(text.slice(0, cut + 1));
    }
  } catch (err) {
    tally.damage = (err as Error).message;
  } finally {
    source.destroy();
    raw.destroy();
  }
  yield* take(rest + decoder.decode());
}

export type MemoryBackup = {
  /** the file read, or null when the checkpoint has none */
  source: string | null;
  /** node_scope, react_step and core_seed records as written, in file order */
  entries: Json[];
  /** lines that were not a JSON object (a backup cut off by a crash ends in one) */
  skipped: number;
  problems: string[];
};

/**
 * The backup of checkpoint `dir` as it is written, for showing: every record unchecked, so a
 * reference backup's fields all appear. With `nodeId`, only that node's records. A truncated
 * archive yields the records before the damage.
 */
export function readMemoryBackup(dir: string, nodeId?: string): MemoryBackup {
  const file = join(dir, BACKUP_FILE);
  const out: MemoryBackup = { source: null, entries: [], skipped: 0, problems: [] };
  let packed: Buffer;
  try {
    if (!statSync(file).isFile()) return { ...out, problems: [`${file}: is not a regular file`] };
    packed = readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return out;
    return { ...out, problems: [`${file}: cannot be read (${(err as Error).message})`] };
  }
  out.source = BACKUP_FILE;
  let text: string;
  try {
    // sync flush: a truncated archive gives what was complete instead of an error
    text = gunzipSync(packed, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: MAX_BACKUP_BYTES }).toString('utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new TooLargeError(`${BACKUP_FILE} unpacks to more than ${MAX_BACKUP_BYTES / 1024 / 1024} MB`, 'restore it into the memory backend to browse it');
    }
    out.problems.push(`${file}: is not a gzip archive (${(err as Error).message})`);
    return out;
  }
  for (const record of records(text)) {
    if (record === null) out.skipped++;
    else if (nodeId === undefined || nodeOfLine(record) === nodeId) out.entries.push(record);
  }
  if (out.skipped > 0) out.problems.push(`${file}: ${out.skipped} damaged line(s) skipped`);
  return out;
}

/** Each non-blank line of `text` as the JSON object it holds, or null for one that holds none. */
function* records(text: string): Generator<Json | null> {
  for (const raw of text.split('\n')) {
    const record = parseLine(raw);
    if (record !== undefined) yield record;
  }
}

/**
 * A record read from a backup, checked: an entry needs a kind and a text, a core_seed its blocks.
 * Anything else (another program's line, a legacy array's stray item) is null.
 */
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
  // a vector that is not whole is left out: the restore embeds that text again
  if (isMapping(v.vector) && typeof v.vector.model === 'string' && v.vector.model !== '' && typeof v.vector.data === 'string' && v.vector.data !== '') {
    line.vector = { model: v.vector.model, data: v.vector.data };
  }
  return line;
}

/** The node an entry belongs to: the line's node_id, else its metadata's (react steps), else none. */
export function nodeOfLine(line: Json): string | null {
  return nonEmpty(stringOr(line.node_id) ?? (isMapping(line.metadata) ? stringOr(line.metadata.node_id) : undefined));
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
