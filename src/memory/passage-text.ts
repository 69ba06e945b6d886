import { parseLine } from '../core/json-object.ts';

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

/**
 * The part of stored text that search ranks: what comes before the last separator. Cheaper than
 * decoding, as the server never needs the metadata itself.
 */
export function passageBody(text: string): string {
  const at = text.lastIndexOf(META_SEPARATOR);
  return at < 0 ? text : text.slice(0, at);
}

/** Splits stored text into its body and metadata; text without (valid) metadata is all body. */
export function decodePassageText(text: string): { body: string; metadata: Record<string, unknown> } {
  const at = text.lastIndexOf(META_SEPARATOR);
  if (at < 0) return { body: text, metadata: {} };
  const meta = parseLine(text.slice(at + META_SEPARATOR.length));
  // not ours: a passage that merely contains the separator keeps its text whole
  return meta ? { body: text.slice(0, at), metadata: meta } : { body: text, metadata: {} };
}
