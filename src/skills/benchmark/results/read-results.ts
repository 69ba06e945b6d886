import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { InvalidRecordError } from '../../../core/errors.ts';
import { isMapping } from '../../../core/values.ts';
import { addRecords, addValue, cellNumber, type Columns } from './columns.ts';
import { parseDelimited } from './csv.ts';

export type ResultsFormat = 'json' | 'jsonl' | 'csv' | 'tsv';

/** Sections of the coding skill's results.json that hold results, in the order names are claimed. */
const RESULT_SECTIONS = ['measurements', 'scores', 'predictions'] as const;

/**
 * The numeric columns of a results file: JSON (the coding skill's results.json, a list of records,
 * or {metric: number | number[]}), JSON lines of records, or CSV/TSV with a header row.
 * The format follows the extension; other files are read as JSON when they start with { or [.
 */
export function readResults(path: string, what: string): { format: ResultsFormat; columns: Columns } {
  const text = readFileSync(path, 'utf8');
  const format = formatOf(path, text);
  const columns: Columns = new Map();
  if (format === 'csv' || format === 'tsv') readTable(columns, parseDelimited(text, format === 'csv' ? ',' : '\t', what), what);
  else if (format === 'jsonl') readRecords(columns, text.split('\n').filter((l) => l.trim() !== '').map((l, i) => parseJson(l, `${what} line ${i + 1}`)), what);
  else readJson(columns, parseJson(text, what), what);
  return { format, columns };
}

function formatOf(path: string, text: string): ResultsFormat {
  const ext = extname(path).toLowerCase().slice(1);
  if (ext === 'json' || ext === 'jsonl' || ext === 'csv' || ext === 'tsv') return ext;
  return /^\s*[[{]/.test(text) ? 'json' : 'csv';
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new InvalidRecordError(`${what} is not valid JSON: ${(err as Error).message}`);
  }
}

function readJson(columns: Columns, value: unknown, what: string): void {
  if (Array.isArray(value)) return readRecords(columns, value, what);
  if (!isMapping(value)) throw new InvalidRecordError(`${what} holds neither an object nor a list of records`);
  if (!('measurements' in value && 'schema_version' in value)) {
    for (const [k, v] of Object.entries(value)) addValue(columns, k, v);
    return;
  }
  // The coding skill's results.json: a name already taken by an earlier section is qualified.
  for (const section of RESULT_SECTIONS) {
    const part = value[section];
    const sectionColumns: Columns = new Map();
    if (Array.isArray(part)) {
      if (!addRecords(sectionColumns, part)) addValue(sectionColumns, section, part);
    }
    else if (isMapping(part)) for (const [k, v] of Object.entries(part)) addValue(sectionColumns, k, v);
    for (const [k, column] of sectionColumns) columns.set(columns.has(k) ? `${section}.${k}` : k, column);
  }
}

function readRecords(columns: Columns, records: readonly unknown[], what: string): void {
  if (!addRecords(columns, records)) throw new InvalidRecordError(`${what} is a list whose entries are not all objects`);
}

function readTable(columns: Columns, rows: string[][], what: string): void {
  const [header, ...body] = rows;
  if (!header) throw new InvalidRecordError(`${what} is empty`);
  const names = header.map((h) => h.trim());
  for (const name of names) addValue(columns, name, []);
  body.forEach((row, r) => {
    if (row.length !== names.length) {
      throw new InvalidRecordError(`${what} data row ${r + 1} has ${row.length} fields but the header has ${names.length}`);
    }
    names.forEach((name, c) => addValue(columns, name, cellNumber(row[c] as string)));
  });
}
