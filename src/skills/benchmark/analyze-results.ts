import { Type as T } from '@sinclair/typebox';
import { NotFoundError, TooLargeError } from '../../core/errors.ts';
import { isFileAt, statOrNull } from '../../core/paths.ts';
import { printable } from '../../core/text.ts';
import { defineTool, toolParams } from '../../mcp/tool.ts';
import { readResults } from './results/read-results.ts';
import { type Summary, summarize } from './stats/summary.ts';
import { fileInWorkDir, WorkDirParam } from '../../coding/work-dir.ts';

/** Results files are tables of numbers; anything larger is not one this tool should load whole. */
const MAX_BYTES = 64 * 1024 * 1024;

export const analyzeResults = defineTool({
  name: 'analyze_results',
  description:
    'Summarise metrics in a results file: for each metric {n, mean, std (sample, null for one value), min, max, median, ignored?: count of values that are not numbers}. ' +
    'Reads JSON (the results.json emit_results writes: measurements, then scores, then predictions; a list of records; or {metric: number | number[]}), ' +
    'JSON lines of records, or CSV/TSV with a header row. metrics empty: every metric with numbers. ' +
    'Returns {path, format, metrics: {name: summary}, missing: requested names not in the file, not_numeric: requested names present without numbers}.',
  params: toolParams({
    result_path: T.String({ description: 'results file, relative to work_dir' }),
    metrics: T.Optional(T.Array(T.String(), { default: [], description: 'metric names to summarise; empty for all' })),
    work_dir: WorkDirParam,
  }),
  run(args, ctx) {
    const path = fileInWorkDir(args.result_path, 'result_path', args.work_dir, ctx.env).path;
    if (!isFileAt(path)) throw new NotFoundError(`result_path '${printable(args.result_path)}' is not a file (looked at ${path})`);
    const size = statOrNull(path)?.size ?? 0;
    if (size > MAX_BYTES) throw new TooLargeError(`result_path '${printable(args.result_path)}' has ${size} bytes; at most ${MAX_BYTES} are read`);

    const { format, columns } = readResults(path, `result_path '${printable(args.result_path)}'`);
    const requested = args.metrics ?? [];
    const names = requested.length ? [...new Set(requested)] : [...columns.keys()].filter((k) => columns.get(k)?.values.length);
    const metrics: Record<string, Summary & { ignored?: number }> = {};
    const missing: string[] = [];
    const notNumeric: string[] = [];
    for (const name of names) {
      const column = columns.get(name);
      if (!column) missing.push(name);
      else if (column.values.length === 0) notNumeric.push(name);
      else metrics[name] = column.other ? { ...summarize(column.values), ignored: column.other } : summarize(column.values);
    }
    return { path, format, metrics, missing, not_numeric: notNumeric };
  },
});
