import { statSync } from 'node:fs';
import { join } from 'node:path';
import { readdirOrNull, readRange } from '../paths.ts';
import { parseCheckpointJson, readCheckpointText } from './records.ts';
import { parseLine } from '../json-object.ts';

// The memory backup is memory/backup-format.ts's to read and write; here are the access logs.
export const ACCESS_LOG = 'memory_access.jsonl';
export const ACCESS_SUMMARY = 'memory_access.summary.json';
/** Of each access log only the newest part is read; the writer rotates at 100 MB by default. */
const MAX_ACCESS_READ_BYTES = 64 * 1024 * 1024;

type Json = Record<string, unknown>;

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
  const summaryFile = join(dir, ACCESS_SUMMARY);
  out.summary = parseCheckpointJson(summaryFile, readCheckpointText(summaryFile, out.problems), out.problems) ?? null;
  return out;
}

/** The live log first, then rotated ones by their epoch suffix, newest first. */
export function accessLogsNewestFirst(dir: string): string[] {
  const names = readdirOrNull(dir) ?? [];
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
  const text = readRange(file, size - MAX_ACCESS_READ_BYTES, MAX_ACCESS_READ_BYTES).toString('utf8');
  return { text: text.slice(text.indexOf('\n') + 1), cut: true };
}
