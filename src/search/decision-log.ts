import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const DECISIONS_FILE = 'lineage_decisions.jsonl';

/** Appends one record as one whole line to the checkpoint's lineage_decisions.jsonl. */
export function appendDecision(checkpointDir: string, record: Record<string, unknown>): void {
  const path = join(checkpointDir, DECISIONS_FILE);
  mkdirSync(dirname(path), { recursive: true });
  // one write call of a short line with O_APPEND: a reader never sees half a line
  appendFileSync(path, `${JSON.stringify(record)}\n`);
}

/** The time fields every decision record starts with. */
export function decisionTimes(now = new Date()): { ts: number; ts_iso: string } {
  return { ts: now.getTime() / 1000, ts_iso: now.toISOString() };
}
