import { type Env, envValue } from '../../core/config/env-vars.ts';
import { InputError, NotFoundError, UnavailableError } from '../../core/errors.ts';
import { checkpointAgentName, checkpointMemoryClient, ensureCheckpointAgent } from '../checkpoint-agent.ts';
import type { MemoryClient } from '../client.ts';
import { entryOf, entryPassage, type MemoryEntry, type NodeKind, nodeTag } from './entries.ts';

export type NodeMemoryOptions = {
  client: MemoryClient;
  /** the checkpoint's agent; created on the first write */
  agentName: string;
  /** the checkpoint the agent belongs to, recorded in the agent when it is created */
  checkpointDir?: string;
  /** for messages */
  baseUrl: string;
  /** bound on each operation as a whole (every backend request of it together) */
  timeoutMs: number;
  /** smallest number of candidates a search asks the backend for */
  overfetch: number;
};

export type ScoredEntry = MemoryEntry & { score: number };
export type NewEntry = { nodeId: string; kind: NodeKind; text: string; metadata: Record<string, unknown> };

/** Agent ids by backend and name, shared by every NodeMemory of the process; a pending lookup is shared too. */
const agentIds = new Map<string, Promise<string>>();

/**
 * The node-scoped memory of one checkpoint: entries owned by nodes of its search tree. Reads are
 * restricted to the node ids given (a node's ancestors), never widened: the backend pre-filters on
 * the nodes' tags, and every row is checked again against its decoded metadata, since a backend
 * may ignore the tag filter. Each operation answers or fails with an UnavailableError naming the
 * backend within `timeoutMs`, however many requests it makes.
 */
export class NodeMemory {
  constructor(readonly opts: NodeMemoryOptions) {}

  /**
   * The memory of the checkpoint at `checkpointDir`: backend from MEMBACKEND_BASE_URL, else the
   * checkpoint workflow's memory.membackend.base_url; agent named with its collection_prefix.
   */
  static forCheckpoint(checkpointDir: string, env: Env): NodeMemory {
    const client = checkpointMemoryClient(checkpointDir, env);
    return new NodeMemory({
      client,
      agentName: checkpointAgentName(checkpointDir, env),
      checkpointDir,
      baseUrl: client.baseUrl,
      timeoutMs: positiveSetting(env, 'SVC_MEMORY_LETTA_TIMEOUT_S') * 1000,
      overfetch: Math.ceil(positiveSetting(env, 'SVC_MEMORY_LETTA_OVERFETCH')),
    });
  }

  /** Stores the entries in one request, in order; creates the agent on first use. */
  add(items: NewEntry[]): Promise<MemoryEntry[]> {
    return this.bounded('a write', async () => {
      const passages = items.map((i) => entryPassage(i.nodeId, i.kind, i.text, i.metadata));
      const stored = await this.opts.client.addPassages(await this.ensuredAgent(), passages);
      if (stored.length !== passages.length) throw new UnavailableError(`memory backend ${this.opts.baseUrl} stored ${stored.length} of ${passages.length} entries`);
      return passages.map((p, i) => ({ entry_id: stored[i]?.id as string, node_id: p.metadata.node_id, kind: p.metadata.kind, text: p.text, metadata: p.metadata.metadata, ts: p.metadata.ts }));
    });
  }

  async addOne(item: NewEntry): Promise<MemoryEntry> {
    return (await this.add([item]))[0] as MemoryEntry;
  }

  /**
   * The best `limit` entries of the given nodes and kinds for `query`, best first. Asks the backend
   * for the larger of the over-fetch size and 40 × limit candidates, so that filtering leaves enough.
   * No node ids: nothing, without asking the backend.
   */
  async search(query: string, nodeIds: string[], kinds: readonly NodeKind[], limit: number, keep: (e: MemoryEntry) => boolean = () => true): Promise<ScoredEntry[]> {
    if (nodeIds.length === 0) return [];
    return this.bounded('a search', async () => {
      const agent = await this.existingAgent();
      if (agent === null) return [];
      const topK = Math.max(this.opts.overfetch, 40 * limit);
      const rows = await this.opts.client.searchPassages(agent, query, { tags: [...new Set(nodeIds)].map(nodeTag), topK });
      const nodes = new Set(nodeIds);
      const out: ScoredEntry[] = [];
      for (const row of rows) {
        const e = entryOf(row);
        if (e && nodes.has(e.node_id) && kinds.includes(e.kind) && keep(e)) out.push({ ...e, score: row.score });
        if (out.length >= limit) break;
      }
      return out;
    });
  }

  /** Every entry of the given nodes and kinds, oldest first. */
  list(nodeIds: string[], kinds: readonly NodeKind[]): Promise<MemoryEntry[]> {
    if (nodeIds.length === 0) return Promise.resolve([]);
    return this.bounded('a listing', async () => {
      const agent = await this.existingAgent();
      const nodes = new Set(nodeIds);
      return agent === null ? [] : this.listAll(agent, [...nodes].map(nodeTag), (e) => nodes.has(e.node_id) && kinds.includes(e.kind));
    });
  }

  /** Every node-scoped entry of the checkpoint, oldest first. */
  listEverything(kinds: readonly NodeKind[]): Promise<MemoryEntry[]> {
    return this.bounded('a listing', async () => {
      const agent = await this.existingAgent();
      return agent === null ? [] : this.listAll(agent, undefined, (e) => kinds.includes(e.kind));
    });
  }

  /** Deletes the given node's entries of the given kinds; returns their ids. */
  clear(nodeId: string, kinds: readonly NodeKind[]): Promise<string[]> {
    return this.bounded('a deletion', async () => {
      const agent = await this.existingAgent();
      if (agent === null) return [];
      const doomed = await this.listAll(agent, [nodeTag(nodeId)], (e) => e.node_id === nodeId && kinds.includes(e.kind));
      for (const e of doomed) await this.opts.client.deletePassage(agent, e.entry_id);
      return doomed.map((e) => e.entry_id);
    });
  }

  /** Core-memory blocks by label; null for a label that is not set (or when the agent does not exist yet). */
  blocks(labels: readonly string[]): Promise<Record<string, string | null>> {
    return this.bounded('a block read', async () => {
      const agent = await this.existingAgent();
      const values = await Promise.all(labels.map((l) => (agent === null ? null : this.opts.client.getBlock(agent, l))));
      return Object.fromEntries(labels.map((l, i) => [l, values[i] ?? null]));
    });
  }

  setBlocks(values: Record<string, string>): Promise<void> {
    return this.bounded('a block write', async () => {
      const agent = await this.ensuredAgent();
      for (const [label, value] of Object.entries(values)) await this.opts.client.setBlock(agent, label, value);
    });
  }

  /** The agent's entries (of the tags, when given) that `keep` keeps, oldest first; the client reads them page by page. */
  private async listAll(agent: string, tags: string[] | undefined, keep: (e: MemoryEntry) => boolean): Promise<MemoryEntry[]> {
    const passages = await this.opts.client.listPassages(agent, tags ? { tags } : {});
    return passages.flatMap((p) => {
      const e = entryOf(p);
      return e && keep(e) ? [e] : [];
    });
  }

  /** The agent id, or null when it does not exist yet: reads never create it. */
  private async existingAgent(): Promise<string | null> {
    const known = agentIds.get(this.agentKey);
    if (known) return known;
    const found = await this.opts.client.findAgent(this.opts.agentName);
    if (found !== null) agentIds.set(this.agentKey, Promise.resolve(found));
    return found;
  }

  /** The agent id, creating the agent when missing; concurrent first writes share one request. */
  private ensuredAgent(): Promise<string> {
    const known = agentIds.get(this.agentKey);
    if (known) return known;
    const { client, checkpointDir, agentName } = this.opts;
    const creating = checkpointDir ? ensureCheckpointAgent(client, checkpointDir, agentName) : client.ensureAgent(agentName);
    agentIds.set(this.agentKey, creating);
    creating.catch(() => agentIds.get(this.agentKey) === creating && agentIds.delete(this.agentKey));
    return creating;
  }

  private get agentKey(): string {
    return `${this.opts.baseUrl}\n${this.opts.agentName}`;
  }

  private async bounded<T>(what: string, work: () => Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new UnavailableError(`memory backend ${this.opts.baseUrl} did not complete ${what} within ${this.opts.timeoutMs / 1000} s`, 'check MEMBACKEND_BASE_URL and that the server is running (svc memory health)')),
        this.opts.timeoutMs,
      );
    });
    // the agent may have been deleted since its id was cached (its checkpoint was): look it up again, once
    const once = () =>
      work().catch((err) => {
        if (!(err instanceof NotFoundError) || !agentIds.has(this.agentKey)) throw err;
        agentIds.delete(this.agentKey);
        return work();
      });
    try {
      return await Promise.race([once(), expired]);
    } finally {
      clearTimeout(timer);
    }
  }
}

function positiveSetting(env: Env, name: string): number {
  const raw = envValue(env, name);
  const n = Number(raw);
  if (raw === null || !Number.isFinite(n) || n <= 0) throw new InputError(`${name} must be a positive number, got '${raw}'`);
  return n;
}
