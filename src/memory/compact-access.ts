import { createReadStream, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { writeJsonAtomic, writeStreamAtomic } from '../core/atomic.ts';
import { ACCESS_LOG, ACCESS_SUMMARY, accessLogsNewestFirst } from '../core/checkpoint/memory-files.ts';
import { parseLine } from '../core/json-object.ts';
import { runningPid } from '../core/checkpoint/pid.ts';
import { ConflictError } from '../core/errors.ts';

/** Reads and writes of one node, as the reference implementation's summary counts them. */
export type NodeAccess = { writes: number; reads: number };

export type CompactReport = {
  /** the parts merged, oldest first */
  parts: string[];
  events: number;
  /** lines that were not JSON objects, dropped */
  skipped: number;
  /** exact repeats of an earlier line, kept once */
  duplicates: number;
  summary: Record<string, NodeAccess>;
};

/**
 * Rewrite a checkpoint's memory telemetry, memory_access.jsonl and its rotated parts
 * memory_access.<epoch>.jsonl, as one memory_access.jsonl (oldest event first, damaged lines
 * dropped), then write memory_access.summary.json: `{<node_id>: {writes, reads}}` over all events.
 * Streamed, so logs of any size fit in memory. The merged file replaces the live log atomically
 * before the rotated parts are removed; should a crash fall in between, the next compaction
 * drops the repeated lines. A running checkpoint is refused: its memory skill appends to the log.
 */
export async function compactAccessLog(checkpointDir: string): Promise<CompactReport> {
  const pid = runningPid(checkpointDir);
  if (pid !== null) throw new ConflictError(`checkpoint ${checkpointDir} is running (pid ${pid}) and still writes ${ACCESS_LOG}`, 'compact it once the run has stopped');
  const parts = accessLogsNewestFirst(checkpointDir).reverse();
  const report: CompactReport = { parts, events: 0, skipped: 0, duplicates: 0, summary: {} };
  if (parts.length === 0) return report;
  const seen = new Set<bigint>();
  async function* events(): AsyncGenerator<string> {
    for (const name of parts) {
      const lines = createInterface({ input: createReadStream(join(checkpointDir, name)), crlfDelay: Number.POSITIVE_INFINITY });
      for await (const raw of lines) {
        const line = raw.trim();
        const event = parseLine(line);
        if (event === undefined) continue;
        if (event === null) {
          report.skipped++;
          continue;
        }
        const hash = BigInt(Bun.hash(line));
        if (seen.has(hash)) {
          report.duplicates++;
          continue;
        }
        seen.add(hash);
        count(report.summary, event);
        report.events++;
        yield `${line}\n`;
      }
    }
  }
  await writeStreamAtomic(join(checkpointDir, ACCESS_LOG), events());
  for (const name of parts) if (name !== ACCESS_LOG) rmSync(join(checkpointDir, name), { force: true });
  writeJsonAtomic(join(checkpointDir, ACCESS_SUMMARY), report.summary);
  return report;
}

function count(summary: Record<string, NodeAccess>, event: Record<string, unknown>): void {
  const node = typeof event.node_id === 'string' ? event.node_id : '';
  const entry = summary[node] ?? { writes: 0, reads: 0 };
  if (event.op === 'write') entry.writes++;
  else if (event.op === 'read') entry.reads++;
  summary[node] = entry;
}
