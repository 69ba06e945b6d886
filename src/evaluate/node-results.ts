import { isMapping } from '../core/values.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { oneLine } from '../core/errors.ts';

export const RESULTS_FILE = 'results.json';
/** a results file is a few keys of numbers; anything this big is not one */
const MAX_RESULTS_BYTES = 4 * 1024 * 1024;

/** What a node's own results.json (written by emit_results) reports. */
export type NodeResults = {
  params: Record<string, unknown>;
  /** every measurement as written: a number or a list of numbers */
  measurements: Record<string, number | number[]>;
  /** one number per measurement: the value, or the mean of a list */
  values: Record<string, number>;
};

export type ResultsRead = { results: NodeResults | null; problem: string | null };

/**
 * The node's `<workDir>/results.json`. Missing: no results and no problem. A file that is not JSON,
 * not an object, or whose measurements are not numbers gives no results and a one-line problem
 * naming the file; measurements that are not numbers are left out and said so.
 */
export function readNodeResults(workDir: string): ResultsRead {
  const file = join(workDir, RESULTS_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { results: null, problem: null };
    return { results: null, problem: `${file}: cannot be read (${oneLine(err)})` };
  }
  if (Buffer.byteLength(text) > MAX_RESULTS_BYTES) return { results: null, problem: `${file}: is over ${MAX_RESULTS_BYTES} bytes` };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { results: null, problem: `${file}: is not valid JSON (${oneLine(err)})` };
  }
  if (!isMapping(raw)) return { results: null, problem: `${file}: is not a JSON object` };
  const measured = raw.measurements ?? {};
  if (!isMapping(measured)) return { results: null, problem: `${file}: measurements is not an object` };
  const params = isMapping(raw.params) ? raw.params : {};
  const measurements: NodeResults['measurements'] = {};
  const values: NodeResults['values'] = {};
  const skipped: string[] = [];
  for (const [key, value] of Object.entries(measured)) {
    const list = Array.isArray(value) ? value : [value];
    if (list.length === 0 || !list.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      skipped.push(key);
      continue;
    }
    measurements[key] = value as number | number[];
    values[key] = (list as number[]).reduce((s, x) => s + x, 0) / list.length;
  }
  const problem = skipped.length > 0 ? `${file}: measurement${skipped.length > 1 ? 's' : ''} ${skipped.map((k) => `'${k}'`).join(', ')} not a number or list of numbers, left out` : null;
  return { results: { params, measurements, values }, problem };
}

