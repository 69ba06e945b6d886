import { extname } from 'node:path';
import { Type as T } from '@sinclair/typebox';
import { writeJsonAtomic } from '../../core/atomic.ts';
import { envValue } from '../../core/config/env-vars.ts';
import { InputError, oneLine } from '../../core/errors.ts';
import { statOrNull } from '../../core/paths.ts';
import { printable } from '../../core/text.ts';
import { CONTRACT_FILE, readMetricContract } from '../../evaluate/metric-contract.ts';
import { defineTool, toolParams, type ToolContext } from '../../mcp/tool.ts';
import { fileInWorkDir, WorkDirParam } from '../../coding/work-dir.ts';

const Measurement = T.Union([T.Number(), T.Array(T.Number(), { minItems: 1 })]);

export const emitResults = defineTool({
  name: 'emit_results',
  description:
    'Write the node\'s results.json: {schema_version: "1.0", params, measurements, predictions, scores, _provenance}. params are the settings you chose; measurements are what you measured, each a number or a list of numbers (one per repeated trial), and they are the node\'s real data. A key is either a param or a measurement, never both. Returns {path, written_keys, contract_warnings}; contract_warnings lists measurements the run\'s metric contract requires that are missing.',
  params: toolParams({
    params: T.Record(T.String(), T.Unknown(), { default: {}, description: 'settings of this experiment, e.g. {"batch_size": 64}' }),
    measurements: T.Record(T.String(), Measurement, { description: 'measured values, e.g. {"accuracy": 0.91} or {"runtime_s": [1.2, 1.3]}' }),
    predictions: T.Record(T.String(), T.Unknown(), { default: {}, description: 'what the hypothesis predicted, keyed like measurements' }),
    scores: T.Record(T.String(), T.Unknown(), { default: {}, description: 'derived scores' }),
    provenance: T.Optional(T.Record(T.String(), T.Unknown(), { description: 'how the numbers were produced (commands, versions, seeds)' })),
    file: T.String({ default: 'results.json', description: 'the .json file to write, relative to work_dir' }),
    work_dir: WorkDirParam,
  }),
  run(args, ctx) {
    const measured = Object.keys(args.measurements);
    if (measured.length === 0) throw new InputError('measurements is empty', 'give at least one measured number');
    const shared = measured.filter((k) => Object.hasOwn(args.params, k));
    if (shared.length > 0) {
      throw new InputError(
        `params and measurements share the key${shared.length > 1 ? 's' : ''} ${shared.map((k) => `'${printable(k)}'`).join(', ')}`,
        'a key is a setting you chose (params) or a value you measured (measurements), not both',
      );
    }
    for (const [key, value] of Object.entries(args.measurements)) {
      if (![value].flat().every(Number.isFinite)) throw new InputError(`measurements.${printable(key)} is not a finite number`);
    }
    const { path } = fileInWorkDir(args.file, 'file', args.work_dir, ctx.env);
    if (extname(path).toLowerCase() !== '.json') throw new InputError(`file '${printable(args.file)}' is not a .json file`, 'leave the default results.json');
    if (statOrNull(path)?.isDirectory()) throw new InputError(`file '${printable(args.file)}' is a directory`);
    const record = {
      schema_version: '1.0',
      params: args.params,
      measurements: args.measurements,
      predictions: args.predictions,
      scores: args.scores,
      ...(args.provenance === undefined ? {} : { _provenance: args.provenance }),
    };
    writeJsonAtomic(path, record);
    return {
      path,
      written_keys: { params: Object.keys(args.params), measurements: measured, predictions: Object.keys(args.predictions), scores: Object.keys(args.scores) },
      contract_warnings: contractWarnings(ctx.env, measured),
    };
  },
});

/** Measurements the run's metric contract requires that this result lacks. */
function contractWarnings(env: ToolContext['env'], measured: string[]): string[] {
  const checkpoint = envValue(env, 'SVC_CHECKPOINT_DIR');
  if (checkpoint === null || !statOrNull(checkpoint)?.isDirectory()) return [];
  try {
    const required = readMetricContract(checkpoint)?.required_measured ?? [];
    return required.filter((k) => !measured.includes(k)).map((k) => `measurement '${k}' required by ${CONTRACT_FILE} is missing`);
  } catch (err) {
    return [oneLine(err)];
  }
}
