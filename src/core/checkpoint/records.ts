import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { TSchema } from '@sinclair/typebox';

/**
 * Read one JSON record of a checkpoint and check it against its schema. A missing file is null;
 * a file that is not JSON, or not of the expected shape, is null plus a problem naming the file.
 * `check`, the schema's compiled check (see compiledCheck), passes a record without TypeBox's
 * value module, which is loaded only to name what is wrong with one.
 */
export function readRecord<S extends TSchema>(dir: string, name: string, schema: S, problems: string[], check?: (value: unknown) => boolean): S['static'] | null {
  const file = join(dir, name);
  const value = parseCheckpointJson(file, readCheckpointText(file, problems), problems);
  return value === undefined ? null : checkRecord(file, value, schema, problems, check);
}

/** A record's parsed value checked against its schema: the value, or null plus a problem naming the file. */
export function checkRecord<S extends TSchema>(file: string, value: unknown, schema: S, problems: string[], check?: (value: unknown) => boolean): S['static'] | null {
  if (check?.(value)) return value as S['static'];
  const { firstRecordError } = require('./record-errors.ts') as typeof import('./record-errors.ts');
  const error = firstRecordError(schema, value);
  if (error) {
    problems.push(`${file}: ${error}`);
    return null;
  }
  return value as S['static'];
}

/** The check that TypeBox's TypeCompiler.Code wrote for a schema, as a function. */
export function compiledCheck(code: string): (value: unknown) => boolean {
  return new Function(code)() as (value: unknown) => boolean;
}

/**
 * The text of a checkpoint file, or null: silently when it does not exist, with a problem naming
 * it when it is not a regular file (a FIFO would block the read) or cannot be read.
 */
export function readCheckpointText(file: string, problems: string[]): string | null {
  try {
    if (!statSync(file).isFile()) {
      problems.push(`${file}: is not a regular file`);
      return null;
    }
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') problems.push(`${file}: cannot be read (${(err as Error).message})`);
    return null;
  }
}

/** The JSON value of a checkpoint file's text; undefined when there is no text, or when it is not JSON (then named in problems). */
export function parseCheckpointJson(file: string, text: string | null, problems: string[]): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch (err) {
    problems.push(`${file}: is not valid JSON (${(err as Error).message})`);
    return undefined;
  }
}
