import { createHash } from 'node:crypto';
import { isMapping } from '../core/values.ts';
import { type EntryLine, type Json, nodeOfLine, nonEmpty, stringOr } from './backup-format.ts';
import type { NewPassage, Passage } from './client.ts';

const NODE_TAG = 'node:';
const KIND_TAG = 'kind:';

/**
 * How an entry is stored, the way the memory skill writes it: passage metadata
 * `{node_id, kind, ts, metadata}` (a backup line without its text), tags `node:<id>` and
 * `kind:<kind>`. A react step names its node in its metadata only, never in a tag, so the node
 * tag pre-filter of a memory search is not spent on trace steps. Passages other programs wrote
 * have plain metadata: that is the entry's own.
 */
function isWrapped(m: Json): m is Json & { metadata: Json } {
  return isMapping(m.metadata) && (typeof m.kind === 'string' || typeof m.node_id === 'string');
}

/** The entry's own metadata of a stored passage. */
export function ownMetadata(m: Json): Json {
  return isWrapped(m) ? m.metadata : m;
}

/** Stored metadata with the entry's own metadata replaced. */
export function withOwnMetadata(m: Json, own: Json): Json {
  return isWrapped(m) ? { ...m, metadata: own } : own;
}

/** A passage of the backend as the backup line that restores it. */
export function passageToLine(p: Passage): EntryLine {
  const m = p.metadata;
  const kind = tagValue(p.tags, KIND_TAG) ?? stringOr(m.kind) ?? 'node_scope';
  const node = nodeOfPassage(p);
  const own = ownMetadata(m);
  const ts = typeof m.ts === 'number' ? m.ts : Date.parse(p.created_at) / 1000;
  const line: EntryLine = { kind, text: p.text, metadata: own, ts: Number.isFinite(ts) ? ts : 0, entry_id: p.id, tags: p.tags, ...(p.vector ? { vector: p.vector } : {}) };
  if (node === null) return line;
  // the reference keeps a react step's node in its metadata, not on the line
  if (kind === 'react_step') return own.node_id === node ? line : { ...line, metadata: { ...own, node_id: node } };
  const { kind: _, ...rest } = line;
  return { kind, node_id: node, ...rest };
}

/** A backup line as the passage that stores it; tags for the node and kind are added when the line has none (reference lines do not). */
export function lineToPassage(line: EntryLine): NewPassage {
  const node = nodeOfLine(line);
  const tags = new Set(line.tags ?? []);
  tags.add(`${KIND_TAG}${line.kind}`);
  if (node !== null && line.kind !== 'react_step') tags.add(`${NODE_TAG}${node}`);
  const metadata = { ...(node === null ? {} : { node_id: node }), kind: line.kind, ts: line.ts, metadata: line.metadata };
  return { text: line.text, tags: [...tags], metadata, ...(line.vector ? { vector: line.vector } : {}) };
}

/** The node of a stored passage: its node tag, else its metadata's node_id (react steps keep it there). */
export function nodeOfPassage(p: Passage): string | null {
  return nonEmpty(tagValue(p.tags, NODE_TAG) ?? stringOr(p.metadata.node_id) ?? stringOr(ownMetadata(p.metadata).node_id));
}

/**
 * What makes two entries the same: their node and the SHA-256 of their text. The kind is not
 * part of it: a text written twice for one node is one memory.
 */
export function contentKey(node: string | null, text: string): string {
  return `${node ?? ''}\u0000${createHash('sha256').update(text).digest('hex')}`;
}

function tagValue(tags: string[], prefix: string): string | undefined {
  const t = tags.find((x) => x.startsWith(prefix));
  return t === undefined ? undefined : t.slice(prefix.length);
}
