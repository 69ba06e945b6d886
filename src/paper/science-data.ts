import { Value } from '@sinclair/typebox/value';
import { InvalidRecordError, NotFoundError } from '../core/errors.ts';
import { readJsonObject } from '../core/json-object.ts';
import { ScienceData } from '../schema/science-data.ts';

const REMAKE = 'make it again with transform-skill nodes_to_science_data';

/** A science_data.json, checked against its schema: the numbers a paper may state. */
export function readScienceData(path: string): ScienceData {
  const raw = readJsonObject(path, REMAKE);
  if (raw === null) throw new NotFoundError(`${path} does not exist`, REMAKE);
  const problem = Value.Errors(ScienceData, raw).First();
  if (problem) throw new InvalidRecordError(`${path} is not science data: ${problem.path || '/'} ${problem.message}`, REMAKE);
  return raw as ScienceData;
}
