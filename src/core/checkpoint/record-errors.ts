import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/** What is wrong with a record, as readRecord names it: the first of TypeBox's errors, or null. */
export function firstRecordError(schema: TSchema, value: unknown): string | null {
  const first = Value.Errors(schema, value).First();
  return first ? `${first.path || 'the document'}: ${first.message.toLowerCase()}` : null;
}
