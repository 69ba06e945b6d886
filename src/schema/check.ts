import type { TObject, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * Every problem of a JSON object against an object schema, one phrase a field, so that a client
 * fixes them all at once: `max_nodes must be a positive integer (at most 100000), got '5'`, an
 * absent required field, and any field the schema does not name. Each field's `description`
 * says what it must be.
 */
export function fieldProblems(schema: TObject, body: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const required = new Set(schema.required ?? []);
  for (const key of Object.keys(body)) if (!(key in schema.properties)) problems.push(`unknown field '${key}'`);
  for (const [key, field] of Object.entries(schema.properties) as [string, TSchema][]) {
    const value = body[key];
    const what = field.description ?? 'valid';
    if (required.has(key) && (value === undefined || !Value.Check(field, value))) problems.push(`${key} is required: ${what}${value === undefined ? '' : `, got ${describe(value)}`}`);
    else if (value !== undefined && !Value.Check(field, value)) problems.push(`${key} must be ${what}, got ${describe(value)}`);
  }
  return problems;
}

/** A value as a message shows it: short strings quoted, long ones by their length, others by their kind. */
export function describe(v: unknown): string {
  if (typeof v === 'string') return v.length > 40 ? `a string of ${v.length} characters` : `'${v}'`;
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return String(v);
}
