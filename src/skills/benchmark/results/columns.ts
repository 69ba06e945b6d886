import { isMapping } from '../../../core/values.ts';

/**
 * Named columns of numbers gathered from a results file. Values that are not finite numbers
 * (text, empty cells, null, NaN) are counted but not kept, so that a column of labels can be
 * told apart from a missing one.
 */
export type Column = { values: number[]; other: number };
export type Columns = Map<string, Column>;

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A CSV cell as a number, or null when it is not one (empty, NA, nan, text). */
export function cellNumber(cell: string): number | null {
  const t = cell.trim();
  if (!DECIMAL.test(t)) return null;
  const v = Number(t);
  return Number.isFinite(v) ? v : null;
}

/** Adds a JSON value to a column: a number, or each entry of a list of numbers. */
export function addValue(columns: Columns, name: string, value: unknown): void {
  let column = columns.get(name);
  if (!column) {
    column = { values: [], other: 0 };
    columns.set(name, column);
  }
  for (const v of Array.isArray(value) ? value : [value]) {
    if (typeof v === 'number' && Number.isFinite(v)) column.values.push(v);
    else column.other++;
  }
}

/** Every field of every record becomes a column. */
export function addRecords(columns: Columns, records: readonly unknown[]): boolean {
  if (!records.every(isMapping)) return false;
  for (const record of records) for (const [k, v] of Object.entries(record)) addValue(columns, k, v);
  return true;
}
