import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CostTraceRecord } from '../../schema/checkpoint.ts';
import { isFileAt, readdirOrNull, statOrNull } from '../paths.ts';
import { parseLine } from '../json-object.ts';

/**
 * Where a reader of the run log is: byte offsets into the run log and into cost_trace.jsonl, both
 * just after the last line read. Written `<log>:<cost>` on the wire (event ids, `since`).
 */
export type LogCursor = { log: number; cost: number };

/** One line for the reader, and the cursor just after it. */
export type LogLine = { msg: string; cursor: LogCursor };

/** A line of a file and the byte offset just after it (its newline included). */
export type RawLine = { text: string; end: number };

export type LogPage = { file: string | null; lines: LogLine[]; next: LogCursor };

const RUN_LOG = /^(?:svc|ari)_run_(\d+)\.log$/;
const COST_TRACE = 'cost_trace.jsonl';
/** the longest line kept whole; a longer one (a progress bar without newlines) is cut into pieces */
const MAX_LINE = 1024 * 1024;
/** how far back a tail looks for its lines */
const MAX_TAIL = 16 * 1024 * 1024;

export function formatCursor(c: LogCursor): string {
  return `${c.log}:${c.cost}`;
}

export function parseCursor(text: string): LogCursor | null {
  const m = /^(\d{1,15}):(\d{1,15})$/.exec(text.trim());
  return m ? { log: Number(m[1]), cost: Number(m[2]) } : null;
}

/**
 * The output log of the checkpoint's run: the newest `svc_run_<epoch>.log` (or the reference
 * implementation's `ari_run_<epoch>.log`) in the checkpoint, else in the directory holding it,
 * where older launchers left them. Null when there is none yet.
 */
export function findRunLog(checkpointDir: string): string | null {
  return newestRunLog(checkpointDir) ?? newestRunLog(dirname(checkpointDir));
}

function newestRunLog(dir: string): string | null {
  let best: { file: string; epoch: number } | null = null;
  const names = readdirOrNull(dir);
  if (names === null) return null;
  for (const name of names) {
    const epoch = Number(RUN_LOG.exec(name)?.[1] ?? Number.NaN);
    if (Number.isNaN(epoch) || (best && best.epoch >= epoch)) continue;
    const file = join(dir, name);
    if (isFileAt(file)) best = { file, epoch };
  }
  return best?.file ?? null;
}

/**
 * The last `n` lines of the run log. Cost records already written are not repeated: the cost
 * cursor starts at the end of cost_trace.jsonl, so only calls made from now on are shown.
 * `final` (the run has ended) includes a last line that has no newline.
 */
export function recentRunLog(checkpointDir: string, n: number, final: boolean): LogPage {
  const file = findRunLog(checkpointDir);
  const cost = lastLineEnd(join(checkpointDir, COST_TRACE));
  const { lines, end } = file ? tailLines(file, n, final) : { lines: [], end: 0 };
  return { file, lines: lines.map((l) => ({ msg: logMessage(l.text), cursor: { log: l.end, cost } })), next: { log: end, cost } };
}

/**
 * Up to `n` lines after `since`: run-log lines first, then new cost records. A run log shorter
 * than the cursor was truncated or replaced, and is read from its start.
 */
export function runLogSince(checkpointDir: string, since: LogCursor, n: number, final: boolean, file = findRunLog(checkpointDir)): LogPage {
  const lines: LogLine[] = [];
  let logAt = file && since.log <= fileSize(file) ? since.log : 0;
  if (file) {
    const read = readLines(file, logAt, n, final);
    logAt = read.end;
    for (const l of read.lines) lines.push({ msg: logMessage(l.text), cursor: { log: l.end, cost: since.cost } });
  }
  const costFile = join(checkpointDir, COST_TRACE);
  let costAt = since.cost <= fileSize(costFile) ? since.cost : 0;
  if (lines.length < n && isFileAt(costFile)) {
    const read = readLines(costFile, costAt, n - lines.length, false);
    costAt = read.end;
    for (const l of read.lines) {
      const msg = costMessage(l.text);
      if (msg !== null) lines.push({ msg, cursor: { log: logAt, cost: l.end } });
    }
  }
  return { file, lines, next: { log: logAt, cost: costAt } };
}

/**
 * Complete lines from byte `offset`, at most `maxLines`. A line still being written (no newline
 * yet) is left for the next read, unless `final`.
 */
export function readLines(file: string, offset: number, maxLines: number, final: boolean): { lines: RawLine[]; end: number } {
  const lines: RawLine[] = [];
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    let at = offset;
    while (lines.length < maxLines && at < size) {
      const buf = Buffer.alloc(Math.min(MAX_LINE, size - at));
      const len = readSync(fd, buf, 0, buf.length, at);
      if (len === 0) break;
      let start = 0;
      for (let nl = buf.indexOf(10, 0); nl !== -1 && nl < len && lines.length < maxLines; nl = buf.indexOf(10, start)) {
        lines.push({ text: buf.toString('utf8', start, nl), end: at + nl + 1 });
        start = nl + 1;
      }
      if (start === 0) {
        // no newline in the window: an overlong line is cut here; an unfinished one waits
        if (len < MAX_LINE && !final) break;
        lines.push({ text: buf.toString('utf8', 0, len), end: at + len });
        start = len;
      }
      at += start;
    }
    return { lines, end: at };
  } finally {
    closeSync(fd);
  }
}

/** The last `n` complete lines (and a last unfinished one when `final`), read from the end. */
export function tailLines(file: string, n: number, final: boolean): { lines: RawLine[]; end: number } {
  const fd = openSync(file, 'r');
  let buf: Buffer;
  let from: number;
  try {
    const size = fstatSync(fd).size;
    from = size;
    buf = Buffer.alloc(0);
    // read backwards until n + 1 newlines (the first line found may be cut) or the start of the file
    while (from > 0 && countNewlines(buf) <= n && size - from < MAX_TAIL) {
      const step = Math.min(64 * 1024, from);
      const chunk = Buffer.alloc(step);
      readSync(fd, chunk, 0, step, from - step);
      buf = Buffer.concat([chunk, buf]);
      from -= step;
    }
  } finally {
    closeSync(fd);
  }
  const lines: RawLine[] = [];
  let start = 0;
  for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10, start)) {
    if (from === 0 || start > 0) lines.push({ text: buf.toString('utf8', start, nl), end: from + nl + 1 });
    start = nl + 1;
  }
  if (final && start < buf.length) lines.push({ text: buf.toString('utf8', start), end: from + buf.length });
  const end = lines.at(-1)?.end ?? from + start;
  return { lines: lines.slice(-n), end };
}

function countNewlines(buf: Buffer): number {
  let count = 0;
  for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) count++;
  return count;
}

/** A run-log line as a terminal would show it: colours and cursor codes removed, only the last carriage-return overwrite. */
export function logMessage(raw: string): string {
  const text = stripAnsi(raw.endsWith('\r') ? raw.slice(0, -1) : raw);
  const cr = text.lastIndexOf('\r');
  return cr === -1 ? text : text.slice(cr + 1);
}

/** CSI sequences (colours, cursor moves), OSC sequences (titles, links) and two-byte escapes. */
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** A cost_trace.jsonl record as a log line: `[hh:mm:ss] <skill> | model=<m> tokens=<n> node=<id>`; null for a line that is not a record. */
export function costMessage(line: string): string | null {
  const r = parseLine(line) as CostTraceRecord | null | undefined;
  if (!r) return null;
  const time = r.timestamp ? new Date(r.timestamp) : null;
  const hms = time && !Number.isNaN(time.getTime()) ? time.toISOString().slice(11, 19) : '--:--:--';
  const tokens = r.total_tokens ?? (r.prompt_tokens ?? 0) + (r.completion_tokens ?? 0);
  return `[${hms}] ${r.skill || r.phase || 'llm'} | model=${r.model || '?'} tokens=${tokens} node=${r.node_id || '-'}`;
}

/** Offset just after the last newline: a record still being written is not counted as read. */
function lastLineEnd(file: string): number {
  if (!isFileAt(file)) return 0;
  const { end } = tailLines(file, 1, false);
  return end;
}

function fileSize(file: string): number {
  return statOrNull(file)?.size ?? 0;
}
