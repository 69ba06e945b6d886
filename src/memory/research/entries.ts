import { isMapping } from '../../core/values.ts';
import type { Passage } from '../client.ts';

/** Typed research memory: what a node found, what failed, how to do it, what it thinks, what reproduced. */
export const RESEARCH_KINDS = ['experiment_result', 'failure_case', 'procedure', 'reflection', 'reproducibility_event'] as const;
export type ResearchKind = (typeof RESEARCH_KINDS)[number];
/** Every kind a node owns: free-form notes (node_scope) and the typed ones. */
export const NODE_KINDS = ['node_scope', ...RESEARCH_KINDS] as const;
export type NodeKind = (typeof NODE_KINDS)[number];

/** A node-scoped memory entry as the tools return it. `metadata` is the caller's (or the typed record). */
export type MemoryEntry = {
  entry_id: string;
  node_id: string;
  kind: NodeKind;
  text: string;
  metadata: Record<string, unknown>;
  /** epoch seconds of the write */
  ts: number;
};

export const nodeTag = (nodeId: string): string => `node:${nodeId}`;
export const kindTag = (kind: string): string => `kind:${kind}`;

/**
 * What is stored for an entry. The passage metadata is `{node_id, kind, ts, metadata}`, the shape
 * of a memory_backup.jsonl.gz node_scope line without its text; the tags let a backend pre-filter.
 */
export function entryPassage(nodeId: string, kind: NodeKind, text: string, metadata: Record<string, unknown>) {
  return { text, tags: [nodeTag(nodeId), kindTag(kind)], metadata: { node_id: nodeId, kind, ts: Date.now() / 1000, metadata } };
}

/**
 * The entry a passage holds, or null for passages that are not node-scoped entries (the ReAct
 * trace, or text without svc metadata). Entries migrated from the reference implementation are
 * node_scope with their type in `metadata.mem_kind` or `metadata.type`; that type is their kind.
 */
export function entryOf(p: Passage): MemoryEntry | null {
  const m = p.metadata;
  if (typeof m.node_id !== 'string' || !isNodeKind(m.kind)) return null;
  const metadata = isMapping(m.metadata) ? m.metadata : {};
  const typed = m.kind === 'node_scope' ? [metadata.mem_kind, metadata.type].find(isResearchKind) : undefined;
  return {
    entry_id: p.id,
    node_id: m.node_id,
    kind: typed ?? m.kind,
    text: p.text,
    metadata,
    ts: typeof m.ts === 'number' ? m.ts : Date.parse(p.created_at) / 1000,
  };
}

export function isNodeKind(v: unknown): v is NodeKind {
  return typeof v === 'string' && (NODE_KINDS as readonly string[]).includes(v);
}

export function isResearchKind(v: unknown): v is ResearchKind {
  return typeof v === 'string' && (RESEARCH_KINDS as readonly string[]).includes(v);
}
