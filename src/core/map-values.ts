/** Replace every string inside a JSON-like value (parsed YAML, stage inputs) by `fn` of it. */
export function mapValues<T>(value: T, fn: (s: string) => unknown): T {
  if (typeof value === 'string') return fn(value) as T;
  if (Array.isArray(value)) return value.map((v) => mapValues(v, fn)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapValues(v, fn)])) as T;
  }
  return value;
}
