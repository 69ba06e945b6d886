import { type Static, Type as T } from '@sinclair/typebox';
import { InputError, TooLargeError } from '../../../core/errors.ts';
import { isMapping } from '../../../core/values.ts';
import { finiteNumbers } from '../numbers.ts';

/** The data shapes plot accepts, one per family of plot types; unknown fields (a misspelt name) are refused. */

const Numbers = T.Array(T.Number());
const Strings = T.Array(T.String());

const BarData = T.Object(
  { labels: Strings, values: T.Optional(Numbers), series: T.Optional(T.Record(T.String(), Numbers)) },
  { additionalProperties: false, description: 'bar: {labels, values} or {labels, series: {name: values}}, one value per label' },
);
const XYData = T.Object(
  { x: T.Optional(Numbers), y: T.Optional(Numbers), series: T.Optional(T.Record(T.String(), T.Object({ x: Numbers, y: Numbers }))) },
  { additionalProperties: false, description: 'line and scatter: {x, y} or {series: {name: {x, y}}}' },
);
const HeatmapData = T.Object(
  { matrix: T.Array(Numbers), x_labels: T.Optional(Strings), y_labels: T.Optional(Strings) },
  { additionalProperties: false, description: 'heatmap: {matrix: rows of numbers, x_labels?: one per column, y_labels?: one per row}' },
);
export const PlotData = T.Union([BarData, XYData, HeatmapData]);
export type PlotData = Static<typeof PlotData>;

type Series = { name: string; values: number[] };
type XYSeries = { name: string; x: number[]; y: number[] };
/** `colours`: one per label, for a single series whose bars are picked out (the best, the baseline). */
export type BarChart = { labels: string[]; series: Series[]; named: boolean; colours?: string[] };
export type XYChart = { series: XYSeries[]; named: boolean };
export type HeatmapChart = { matrix: number[][]; xLabels: string[]; yLabels: string[] };

/** Keeps files and render times reasonable; a figure with more points than this is unreadable anyway. */
const MAX_POINTS = 1_000_000;

/** The fields of any of the shapes, for checking which one was given. */
type AnyShape = { labels?: unknown; values?: unknown; series?: unknown; x?: unknown; y?: unknown; matrix?: unknown; x_labels?: unknown; y_labels?: unknown };

export function barChart(data: PlotData): BarChart {
  const d = data as AnyShape;
  if (!isStrings(d.labels)) throw new InputError('data.labels is required for a bar plot', 'give {labels, values} or {labels, series}');
  const labels = d.labels;
  if (labels.length === 0) throw new InputError('data.labels is empty');
  const given = eitherOr(d.values, d.series, 'values', 'bar');
  const series = given.single
    ? [{ name: '', values: barValues(d.values, 'data.values', labels.length) }]
    : given.named.map(([name, v]) => ({ name, values: barValues(v, `data.series.${name}`, labels.length) }));
  capPoints(series.length * labels.length);
  return { labels, series, named: !given.single };
}

function barValues(value: unknown, name: string, count: number): number[] {
  const values = finiteNumbers(value, name);
  if (values.length !== count) throw new InputError(`${name} has ${values.length} numbers for ${count} labels`);
  return values;
}

export function xyChart(data: PlotData, kind: 'line' | 'scatter'): XYChart {
  const d = data as AnyShape;
  const given = eitherOr(d.x ?? d.y, d.series, 'x and y', kind);
  const series = given.single
    ? [xySeries(d, 'data.', '')]
    : given.named.map(([name, v]) => {
        if (!isMapping(v)) throw new InputError(`data.series.${name} must be {x, y} for a ${kind} plot`);
        return xySeries(v, `data.series.${name}.`, name);
      });
  capPoints(series.reduce((n, s) => n + s.x.length, 0));
  return { series, named: !given.single };
}

function xySeries(value: { x?: unknown; y?: unknown }, prefix: string, name: string): XYSeries {
  const x = finiteNumbers(value.x, `${prefix}x`);
  const y = finiteNumbers(value.y, `${prefix}y`);
  if (x.length !== y.length) throw new InputError(`${prefix}x and ${prefix}y have different lengths (${x.length} and ${y.length})`);
  return { name, x, y };
}

export function heatmapChart(data: PlotData): HeatmapChart {
  const d = data as AnyShape;
  if (!Array.isArray(d.matrix)) throw new InputError('data.matrix is required for a heatmap', 'give {matrix: [[...], ...]}');
  if (d.matrix.length === 0) throw new InputError('data.matrix is empty');
  const matrix = d.matrix.map((row, i) => finiteNumbers(row, `data.matrix[${i}]`));
  const columns = (matrix[0] as number[]).length;
  const uneven = matrix.findIndex((row) => row.length !== columns);
  if (uneven >= 0) throw new InputError(`data.matrix[${uneven}] has ${matrix[uneven]?.length} numbers but data.matrix[0] has ${columns}`);
  capPoints(matrix.length * columns);
  return {
    matrix,
    xLabels: labelsFor(d.x_labels, 'data.x_labels', columns, 'columns'),
    yLabels: labelsFor(d.y_labels, 'data.y_labels', matrix.length, 'rows'),
  };
}

/** Either one unnamed series (`single` present) or named ones in `series`; exactly one of them. */
function eitherOr(single: unknown, series: unknown, singleName: string, kind: string): { single: true } | { single: false; named: [string, unknown][] } {
  if (single !== undefined && series !== undefined) throw new InputError(`data has both ${singleName} and series; give one of them`);
  if (single !== undefined) return { single: true };
  if (series === undefined) throw new InputError(`data needs ${singleName}, or series, for a ${kind} plot`);
  if (!isMapping(series)) throw new InputError('data.series must map series names to their data');
  const named = Object.entries(series);
  if (named.length === 0) throw new InputError('data.series is empty');
  return { single: false, named };
}

function isStrings(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((s) => typeof s === 'string');
}

function labelsFor(given: unknown, name: string, count: number, what: string): string[] {
  if (given === undefined) return Array.from({ length: count }, (_, i) => String(i));
  if (!isStrings(given)) throw new InputError(`${name} must be a list of strings`);
  if (given.length !== count) throw new InputError(`${name} has ${given.length} labels for ${count} ${what}`);
  return given;
}

function capPoints(n: number): void {
  if (n > MAX_POINTS) throw new TooLargeError(`data has ${n} points; plot draws at most ${MAX_POINTS}`);
}
