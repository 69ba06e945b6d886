import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeJsonAtomic } from '../core/atomic.ts';
import { InvalidRecordError } from '../core/errors.ts';

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

/** A JSON object file of the checkpoint (meta.json, idea.json, tree.json), or null when it does not exist. */
export function readJsonObject(path: string, hint = 'fix or remove the file'): Record<string, unknown> | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    throw new InvalidRecordError(`${path} is not JSON: ${(err as Error).message}`, hint);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new InvalidRecordError(`${path} is not a JSON object`, hint);
  return v as Record<string, unknown>;
}

/** Sets keys of a JSON object file, creating it when absent; written atomically. */
export function mergeJsonFile(path: string, fields: Record<string, unknown>): void {
  writeJsonAtomic(path, { ...(readJsonObject(path) ?? {}), ...fields });
}
