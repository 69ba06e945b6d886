/** A plain JSON object (a YAML mapping), not an array or null. */
export function isMapping(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A configured value: an empty string counts as unset, as in the environment. */
export function isPresent(v: unknown): boolean {
  return v !== undefined && v !== null && v !== '';
}

/** The strings of a list (of a JSON value), the rest left out; none when it is not a list. */
export function stringList(x: unknown): string[] {
  return Array.isArray(x) ? x.filter((s): s is string => typeof s === 'string') : [];
}

/** The items once each, in the order they first come. */
export function unique<T>(xs: Iterable<T>): T[] {
  return [...new Set(xs)];
}
