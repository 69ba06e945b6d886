import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { InputError } from '../core/errors.ts';
import { isMapping } from '../core/values.ts';

/**
 * The arguments of one tool call, checked against the tool's schema with its defaults filled in.
 * A missing or mistyped argument is an InputError naming it, so the caller (a model) can correct
 * the call; the server keeps running.
 */
export function checkArguments<S extends TSchema>(schema: S, tool: string, raw: unknown): S['static'] {
  if (raw !== undefined && !isMapping(raw)) throw new InputError(`${tool}: arguments must be an object`);
  const copy = structuredClone(raw ?? {});
  const reserved = protoKeyAt(copy);
  if (reserved !== null) throw new InputError(`${tool}: argument '${reserved}' uses the key __proto__, which an object cannot hold`, 'rename the key');
  const args = Value.Default(schema, copy);
  const first = Value.Errors(schema, args).First();
  if (!first) return args as S['static'];
  // a misspelt name is the likeliest mistake, and the list of names is the likeliest fix
  const unknown = schema.additionalProperties === false ? unknownKey(schema, args) : undefined;
  if (unknown) throw new InputError(`${tool}: ${unknown}`);
  const name = first.path.replace(/^\//, '').replace(/\//g, '.');
  if (name === '') throw new InputError(`${tool}: ${first.message.toLowerCase()}`);
  const given = valueAt(args, first.path);
  if (given === undefined) throw new InputError(`${tool}: missing argument '${name}'`);
  throw new InputError(`${tool}: argument '${name}' ${first.message.toLowerCase()}, got ${describe(given)}`);
}

/**
 * Where a parsed argument has an own key `__proto__`, or null. Filling in defaults would turn that
 * key into the object's prototype: the value would vanish from the data and answer lookups instead.
 */
function protoKeyAt(root: unknown): string | null {
  const pending: [unknown, string][] = [[root, '']];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, path] = next;
    if (value === null || typeof value !== 'object') continue;
    for (const [key, inner] of Object.entries(value)) {
      const at = path === '' ? key : `${path}.${key}`;
      if (key === '__proto__') return at;
      pending.push([inner, at]);
    }
  }
  return null;
}

function unknownKey(schema: TSchema, args: unknown): string | undefined {
  const known = isMapping(schema.properties) ? Object.keys(schema.properties) : [];
  const extra = isMapping(args) ? Object.keys(args).find((k) => !known.includes(k)) : undefined;
  return extra === undefined ? undefined : `unknown argument '${extra}' (arguments: ${known.join(', ')})`;
}

function valueAt(root: unknown, pointer: string): unknown {
  let at: unknown = root;
  for (const part of pointer.split('/').slice(1)) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return at;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return v.length > 40 ? 'a string' : JSON.stringify(v);
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}
