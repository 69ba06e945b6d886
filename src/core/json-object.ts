import { readFileSync } from 'node:fs';
import { writeJsonAtomic } from './atomic.ts';
import { InvalidRecordError } from './errors.ts';
import { isMapping } from './values.ts';

/** A JSON object file (meta.json, idea.json, tree.json, publish_record.json), or null when it does not exist. */
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

/** A line of a JSON-lines file as the object it holds: undefined for a blank line, null for one that is not a JSON object. */
export function parseLine(line: string): Record<string, unknown> | null | undefined {
  if (line.trim() === '') return undefined;
  try {
    const v: unknown = JSON.parse(line);
    return isMapping(v) ? v : null;
  } catch {
    return null;
  }
}
