/**
 * The handle of a setting that names an embedding model, or null for none ('default', 'none' or
 * empty). A module of its own, importing nothing: the memory client, loaded by every skill
 * process, reads handles without loading the model layer.
 */
export function embeddingHandle(value: string | null | undefined): string | null {
  const v = (value ?? '').trim();
  return v === '' || v === 'default' || v === 'none' ? null : v;
}
