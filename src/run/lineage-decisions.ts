import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMapping } from '../core/values.ts';
import { log } from '../core/log.ts';

export const LINEAGE_FILE = 'lineage_decisions.jsonl';

/**
 * The decisions in a checkpoint's lineage_decisions.jsonl, oldest first; [] when it has none. A
 * last line without its newline is a write in progress (or cut by a crash) and is left out; a
 * damaged line elsewhere is left out and reported on stderr, so one bad record does not hide the rest.
 */
export function readLineageDecisions(dir: string): Record<string, unknown>[] {
  let text: string;
  try {
    text = readFileSync(join(dir, LINEAGE_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const lines = text.split('\n');
  // after the last newline: empty, or a record still being written
  const torn = lines.pop();
  const out: Record<string, unknown>[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const record = parse(line);
    if (record) out.push(record);
    else log.warn(`${join(dir, LINEAGE_FILE)}: line ${i + 1} is not a JSON object; left out`);
  });
  // a final record written without its newline is still whole when it parses
  const last = torn && torn.trim() !== '' ? parse(torn) : null;
  if (last) out.push(last);
  return out;
}

function parse(line: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(line);
    return isMapping(v) ? v : null;
  } catch {
    return null;
  }
}
