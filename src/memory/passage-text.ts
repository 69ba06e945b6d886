/**
 * Passage metadata travels inside the passage text, after a separator line, as one line of JSON:
 * a real Letta server has no metadata field to filter on, but it keeps the text as given.
 * JSON.stringify never writes a raw newline, so the last separator always starts the metadata.
 */
export const META_SEPARATOR = '\n<<<SVC_META>>>\n';

/** The text to store for a passage: the body, then the metadata when there is any. */
export function encodePassageText(body: string, metadata: Record<string, unknown>): string {
  return Object.keys(metadata).length === 0 ? body : `${body}${META_SEPARATOR}${JSON.stringify(metadata)}`;
}

/** Splits stored text into its body and metadata; text without (valid) metadata is all body. */
export function decodePassageText(text: string): { body: string; metadata: Record<string, unknown> } {
  const at = text.lastIndexOf(META_SEPARATOR);
  if (at < 0) return { body: text, metadata: {} };
  try {
    const meta: unknown = JSON.parse(text.slice(at + META_SEPARATOR.length));
    if (meta && typeof meta === 'object' && !Array.isArray(meta)) return { body: text.slice(0, at), metadata: meta as Record<string, unknown> };
  } catch {
    // not ours: a passage that merely contains the separator keeps its text whole
  }
  return { body: text, metadata: {} };
}
