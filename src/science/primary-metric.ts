import { join } from 'node:path';
import { InputError } from '../core/errors.ts';
import { readJsonObject } from '../core/json-object.ts';
import { CONTRACT_FILE } from '../evaluate/metric-contract.ts';
import { toKeyword } from '../evaluate/metric-keyword.ts';

export const CRITERIA_FILE = 'evaluation_criteria.json';

export type PrimaryMetric = { name: string; higher_is_better: boolean; source: string };

/**
 * The metric configurations are ranked by: the one given (with the direction given), else the
 * run's metric contract (metric_contract.json), else evaluation_criteria.json, else idea.json.
 * A run that names none anywhere is an error: ranking by a guessed metric would mislead.
 */
export function primaryMetric(checkpointDir: string, given: { name?: string; higher_is_better: boolean }): PrimaryMetric {
  const name = given.name?.trim();
  if (name) return { name, higher_is_better: given.higher_is_better, source: 'argument' };
  const sources: [string, string, string][] = [
    [CONTRACT_FILE, 'metric_keyword', 'key'],
    [CRITERIA_FILE, 'primary_metric', 'primary_metric'],
    ['idea.json', 'primary_metric', 'primary_metric'],
  ];
  for (const [file, key, alt] of sources) {
    const record = readJsonObject(join(checkpointDir, file));
    const value = record?.[key] ?? record?.[alt];
    if (typeof value !== 'string' || toKeyword(value) === '') continue;
    const hib = record?.higher_is_better;
    return { name: toKeyword(value), higher_is_better: typeof hib === 'boolean' ? hib : true, source: file };
  }
  throw new InputError(`no primary metric: none given, and ${checkpointDir} has no ${CONTRACT_FILE}, ${CRITERIA_FILE} or idea.json naming one`, 'give primary_metric (and higher_is_better) to the stage');
}
