import { contentKey, lineToPassage, nodeOfPassage, ownMetadata, withOwnMetadata } from './backup-convert.ts';
import { type BackupLine, type CoreSeedLine, type EntryLine, nodeOfLine } from './backup-format.ts';
import { allPassages } from './backup-passages.ts';
import { applyCoreSeed, type SeedOutcome } from './restore-seed.ts';
import type { MemoryClient, PassageVector } from './client.ts';

/**
 * What to do with an entry that is already in the agent. An entry conflicts with a stored
 * passage when both belong to the same node and have the same text (SHA-256), or when the line
 * carries the passage's own entry id. Entries repeated within the source conflict the same way.
 *
 * - skip: the stored passage stays as it is; only entries without a conflict are added.
 * - overwrite: for every node that has entries in the source (entries without a node count as
 *   one more "node"), the agent's passages are replaced by the source's. Other nodes are untouched.
 *   New passages are added before the old ones are deleted: a crash part-way leaves duplicates,
 *   never a gap.
 * - merge: entries without a conflict are added; a conflicting pair becomes one passage with the
 *   union of both tag sets and both metadata objects (the stored value wins for a key both have).
 *   The backend cannot edit a passage, so a widened one is re-added and the old one deleted.
 */
export const CONFLICT_MODES = ['skip', 'overwrite', 'merge'] as const;
export type ConflictMode = (typeof CONFLICT_MODES)[number];

export type ImportTally = {
  /** entry lines taken from the source */
  read: number;
  added: number;
  /** conflicts left as stored (skip, or merge with nothing new to add) */
  kept: number;
  /** conflicts whose tags or metadata were widened (merge) */
  merged: number;
  /** stored passages deleted because the source replaces their node (overwrite) */
  replaced: number;
  core_seed: SeedOutcome;
};

/** A passage as the import knows it; id null while it waits in a batch. `fresh`: new, not a widened copy. */
type Stored = { id: string | null; fresh: boolean; text: string; tags: string[]; metadata: Record<string, unknown>; vector?: PassageVector };

const BATCH = 1000;

/**
 * Add a source's lines to an agent under a conflict mode. `source` is called once per pass
 * (overwrite reads it twice: first for the nodes it covers), so it must yield the same lines each time.
 */
export async function importLines(client: MemoryClient, agentId: string, source: () => AsyncIterable<BackupLine>, mode: ConflictMode): Promise<ImportTally> {
  const tally: ImportTally = { read: 0, added: 0, kept: 0, merged: 0, replaced: 0, core_seed: 'none' };
  const nodes = mode === 'overwrite' ? await nodesOf(source()) : null;
  const byKey = new Map<string, Stored>();
  const byId = new Map<string, Stored>();
  // overwrite: the stored passages of the source's nodes, deleted once all of the source is in
  const replaced: string[] = [];
  // merge: originals of widened passages, deleted once their widened copy is stored
  const narrower: string[] = [];
  // with their vectors: a widened copy keeps its vector rather than being embedded again
  for await (const p of allPassages(client, agentId, { vectors: mode === 'merge' })) {
    const node = nodeOfPassage(p);
    if (nodes !== null) {
      if (nodes.has(node)) replaced.push(p.id);
      continue;
    }
    const s: Stored = { id: p.id, fresh: false, text: p.text, tags: p.tags, metadata: p.metadata, ...(p.vector ? { vector: p.vector } : {}) };
    byKey.set(contentKey(node, p.text), s);
    byId.set(p.id, s);
  }
  let batch: Stored[] = [];
  let seed: CoreSeedLine | null = null;
  const flush = async () => {
    if (batch.length === 0) return;
    const added = await client.addPassages(agentId, batch.map(({ text, tags, metadata, vector }) => ({ text, tags, metadata, ...(vector ? { vector } : {}) })));
    batch.forEach((s, i) => {
      s.id = added[i]?.id ?? null;
    });
    tally.added += batch.filter((s) => s.fresh).length;
    batch = [];
    await deleteAll(client, agentId, narrower.splice(0));
  };
  for await (const line of source()) {
    if (line.kind === 'core_seed') {
      seed = line as CoreSeedLine;
      continue;
    }
    tally.read++;
    const entry = line as EntryLine;
    const key = contentKey(nodeOfLine(entry), entry.text);
    const stored = byKey.get(key) ?? (entry.entry_id !== undefined ? byId.get(entry.entry_id) : undefined);
    if (stored === undefined) {
      const s: Stored = { id: null, fresh: true, ...lineToPassage(entry) };
      byKey.set(key, s);
      batch.push(s);
    } else if (mode !== 'merge' || !widen(stored, lineToPassage(entry))) {
      tally.kept++;
    } else {
      tally.merged++;
      if (stored.id !== null) {
        narrower.push(stored.id);
        stored.id = null;
        stored.fresh = false;
        batch.push(stored);
      }
    }
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  await deleteAll(client, agentId, replaced);
  tally.replaced = replaced.length;
  if (seed !== null) tally.core_seed = await applyCoreSeed(client, agentId, seed, mode);
  return tally;
}

/** The nodes a source has entries for (null: entries that belong to no node). */
async function nodesOf(lines: AsyncIterable<BackupLine>): Promise<Set<string | null>> {
  const nodes = new Set<string | null>();
  for await (const line of lines) if (line.kind !== 'core_seed') nodes.add(nodeOfLine(line as EntryLine));
  return nodes;
}

/** Union `extra`'s tags and own metadata into `stored` (stored values win); true when that changed it. */
function widen(stored: Stored, extra: { tags: string[]; metadata: Record<string, unknown> }): boolean {
  const tags = [...new Set([...stored.tags, ...extra.tags])];
  const own = ownMetadata(stored.metadata);
  const union = { ...ownMetadata(extra.metadata), ...own };
  if (tags.length === stored.tags.length && Object.keys(union).length === Object.keys(own).length) return false;
  stored.tags = tags;
  stored.metadata = withOwnMetadata(stored.metadata, union);
  return true;
}

async function deleteAll(client: MemoryClient, agentId: string, ids: string[]): Promise<void> {
  for (const id of ids) await client.deletePassage(agentId, id);
}
