import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { constants, gunzipSync } from 'node:zlib';
import { TooLargeError } from '../errors.ts';
import { readCheckpointText } from './records.ts';

export const MEMORY_BACKUP = 'memory_backup.jsonl.gz';
export const ACCESS_LOG = 'memory_access.jsonl';
export const ACCESS_SUMMARY = 'memory_access.summary.json';
/** A backup unpacking to more than this is refused rather than held in memory. */
const MAX_BACKUP_BYTES = 32 * 1024 * 1024;
/** Of each access log only the newest part is read; the writer rotates at 100 MB by default. */
const MAX_ACCESS_READ_BYTES = 64 * 1024 * 1024;

type Json = Record<string, unknown>;

export type MemoryBackup = {
  /** the file read, or null when the checkpoint has none */
  source: string | null;
  /** node_scope, react_step and core_seed records, in file order */
  entries: Json[];
  /** lines that were not a JSON object (a backup cut off by a crash ends in one) */
  skipped: number;
  problems: string[];
};

/**
 * The memory snapshot a run leaves in memory_backup.jsonl.gz. With `nodeId`, only that node's
 * records. A truncated archive yields the records before the damage.
 */
export function readMemoryBackup(dir: string, nodeId?: string): MemoryBackup {
  const file = join(dir, MEMORY_BACKUP);
  const out: MemoryBackup = { source: null, entries: [], skipped: 0, problems: [] };
  let packed: Buffer;
  try {
    if (!statSync(file).isFile()) return { ...out, problems: [`${file}: is not a regular file`] };
    packed = readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return out;
    return { ...out, problems: [`${file}: cannot be read (${(err as Error).message})`] };
  }
  out.source = MEMORY_BACKUP;
  let text: string;
  try {
    // sync flush: a truncated archive gives what was complete instead of an error
    text = gunzipSync(packed, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: MAX_BACKUP_BYTES }).toString('utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new TooLargeError(`${MEMORY_BACKUP} unpacks to more than ${MAX_BACKUP_BYTES / 1024 / 1024} MB`, 'restore it into the memory backend to browse it');
    }
    out.problems.push(`${file}: is not a gzip archive (${(err as Error).message})`);
    return out;
  }
  for (const line of text.split('\n')) {
    const record = parseLine(line);
    if (record === undefined) continue;
    if (record === null) out.skipped++;
    else if (nodeId === undefined || nodeOf(record) === nodeId) out.entries.push(record);
  }
  if (out.skipped > 0) out.problems.push(`${file}: ${out.skipped} damaged line(s) skipped`);
  return out;
}

/** A node_scope record names its node; a react_step record carries it in its metadata. */
function nodeOf(record: Json): unknown {
  const meta = record.metadata;
  return record.node_id ?? (meta !== null && typeof meta === 'object' ? (meta as Json).node_id : undefined);
}

export type MemoryAccess = {
  /** files read, oldest first */
  sources: string[];
  /** read and write events, oldest first; the newest `limit` when more matched */
  events: Json[];
  /** true when the limit, or the read cap on a huge log, left older events unread */
  truncated: boolean;
  skipped: number;
  /** memory_access.summary.json as written, or null */
  summary: unknown;
  problems: string[];
};

/**
 * The memory telemetry of a run: memory_access.jsonl and its rotated predecessors
 * memory_access.<epoch>.jsonl, newest kept when there are more than `limit` events.
 */
export function readMemoryAccess(dir: string, opts: { limit: number; nodeId?: string }): MemoryAccess {
  const out: MemoryAccess = { sources: [], events: [], truncated: false, skipped: 0, summary: null, problems: [] };
  const newestFirst: Json[] = [];
  for (const name of accessLogsNewestFirst(dir)) {
    if (newestFirst.length >= opts.limit) {
      out.truncated = true;
      break;
    }
    const file = join(dir, name);
    const tail = readTail(file, out.problems);
    if (tail === null) continue;
    out.sources.unshift(name);
    if (tail.cut) out.truncated = true;
    const lines = tail.text.split('\n');
    for (let i = lines.length - 1; i >= 0; i--) {
      const record = parseLine(lines[i] ?? '');
      if (record === undefined) continue;
      if (record === null) out.skipped++;
      else if (opts.nodeId === undefined || record.node_id === opts.nodeId) {
        if (newestFirst.length >= opts.limit) {
          out.truncated = true;
          break;
        }
        newestFirst.push(record);
      }
    }
  }
  out.events = newestFirst.reverse();
  if (out.skipped > 0) out.problems.push(`${out.skipped} damaged line(s) skipped`);
  const summaryText = readCheckpointText(join(dir, ACCESS_SUMMARY), out.problems);
  if (summaryText !== null) {
    try {
      out.summary = JSON.parse(summaryText);
    } catch (err) {
      out.problems.push(`${join(dir, ACCESS_SUMMARY)}: is not valid JSON (${(err as Error).message})`);
    }
  }
  return out;
}

/** The live log first, then rotated ones by their epoch suffix, newest first. */
export function accessLogsNewestFirst(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const rotated = names
    .map((n) => ({ n, m: /^memory_access\.(\d+)\.jsonl$/.exec(n) }))
    .filter((x) => x.m !== null)
    .sort((a, b) => Number(b.m?.[1]) - Number(a.m?.[1]))
    .map((x) => x.n);
  return [...(names.includes(ACCESS_LOG) ? [ACCESS_LOG] : []), ...rotated];
}

/** The last MAX_ACCESS_READ_BYTES of a file, starting at a whole line. */
function readTail(file: string, problems: string[]): { text: string; cut: boolean } | null {
  let size: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) {
      problems.push(`${file}: is not a regular file`);
      return null;
    }
    size = st.size;
  } catch (err) {
    problems.push(`${file}: cannot be read (${(err as Error).message})`);
    return null;
  }
  if (size <= MAX_ACCESS_READ_BYTES) {
    const text = readCheckpointText(file, problems);
    return text === null ? null : { text, cut: false };
  }
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(MAX_ACCESS_READ_BYTES);
    const n = readSync(fd, buf, 0, buf.length, size - buf.length);
    const text = buf.subarray(0, n).toString('utf8');
    return { text: text.slice(text.indexOf('\n') + 1), cut: true };
  } finally {
    closeSync(fd);
  }
}

/** undefined for a blank line, null for one that is not a JSON object. */
export function parseLine(line: string): Json | null | undefined {
  if (line.trim() === '') return undefined;
  try {
    const v: unknown = JSON.parse(line);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null;
  } catch {
    return null;
  }
}
