import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * Read one JSON record of a checkpoint and check it against its schema. A missing file is null;
 * a file that is not JSON, or not of the expected shape, is null plus a problem naming the file.
 */
export function readRecord<S extends TSchema>(dir: string, name: string, schema: S, problems: string[]): S['static'] | null {
  const file = join(dir, name);
  let text: string;
  try {
    if (!statSync(file).isFile()) {
      problems.push(`${file}: is not a regular file`);
      return null;
    }
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    problems.push(`${file}: is not valid JSON (${(err as Error).message})`);
    return null;
  }
  const first = Value.Errors(schema, value).First();
  if (first) {
    problems.push(`${file}: ${first.path || 'the document'}: ${first.message.toLowerCase()}`);
    return null;
  }
  return value as S['static'];
}
