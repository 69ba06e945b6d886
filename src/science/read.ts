import { Value } from '@sinclair/typebox/value';
import { InputError, InvalidRecordError, NotFoundError } from '../core/errors.ts';
import { readJsonObject } from '../core/json-object.ts';
import { keyPath } from '../core/key-path.ts';
import { statOrNull } from '../core/paths.ts';
import { type ScienceConfiguration, ScienceData } from '../schema/science-data.ts';

const REWRITE = 'write it again with the transform_data stage (nodes_to_science_data)';

/**
 * science_data.json, checked against its schema and for what the schema cannot say: one
 * configuration per node, best and baseline naming configurations, and every number measured on a
 * node equal to what that configuration reports. A paper drawn from it may cite any of its numbers,
 * so a file that contradicts itself is refused, with one line naming the file and the first problem.
 */
export function readScienceDataFile(path: string): ScienceData {
  const st = statOrNull(path);
  if (!st) throw new NotFoundError(`no science data at ${path}`, REWRITE);
  if (!st.isFile()) throw new InputError(`${path} is not a file`, 'give the path of science_data.json');
  const raw = readJsonObject(path, REWRITE) as Record<string, unknown>;
  const first = Value.Errors(ScienceData, raw).First();
  if (first) throw invalid(path, keyPath(first.path), `${first.message.toLowerCase()} (got ${shown(first.value)})`);
  const data = raw as ScienceData;
  const problem = inconsistency(data);
  if (problem) throw invalid(path, problem.key, problem.why);
  return data;
}

function inconsistency(data: ScienceData): { key: string; why: string } | null {
  const byNode = new Map<string, ScienceConfiguration>();
  for (const [i, c] of data.configurations.entries()) {
    if (byNode.has(c.node_id)) return { key: `configurations[${i}].node_id`, why: `'${c.node_id}' is already the node of another configuration` };
    byNode.set(c.node_id, c);
  }
  const metric = data.primary_metric.name;
  for (const which of ['best', 'baseline'] as const) {
    const ref = data[which];
    if (!ref) continue;
    const c = byNode.get(ref.node_id);
    if (!c) return { key: `${which}.node_id`, why: `'${ref.node_id}' is the node of no configuration` };
    if (c.metrics[metric] !== ref.value) return { key: `${which}.value`, why: `${ref.value} is not what configuration ${ref.node_id} measured of ${metric} (${c.metrics[metric] ?? 'nothing'})` };
  }
  for (const [key, v] of Object.entries(data.values)) {
    const measured = v.node_id === null ? undefined : byNode.get(v.node_id)?.metrics[v.metric];
    if (measured !== undefined && measured !== v.value) return { key: `values['${key}'].value`, why: `${v.value} is not what configuration ${v.node_id} measured of ${v.metric} (${measured})` };
  }
  return null;
}

function invalid(path: string, key: string, why: string): InvalidRecordError {
  return new InvalidRecordError(`${path} is not valid science data: ${key ? `${key}: ` : ''}${why}`, REWRITE);
}

/** A value as a message about it shows it: its JSON, cut at 60 characters; `nothing` when absent. */
export function shown(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
