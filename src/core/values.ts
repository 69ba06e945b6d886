/** A plain JSON object (a YAML mapping), not an array or null. */
export function isMapping(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A configured value: an empty string counts as unset, as in the environment. */
export function isPresent(v: unknown): boolean {
  return v !== undefined && v !== null && v !== '';
}
