import { CHECKPOINT_BLOCK } from './checkpoint-agent.ts';
import type { PassageEmbeddings, Vectors } from './passage-embeddings.ts';
import type { MemoryStore, PassageRecord, ScoredPassageRecord, SearchOptions } from './store.ts';
import { queryWords } from './store-search.ts';

/**
 * Passages of the scope a search embeds when they have no vector yet: a database from before
 * embeddings (or passages stored while the model was down) catches up on the scopes searched,
 * one model batch per search, without a search ever waiting on thousands of texts.
 */
const LAZY_FILL = 64;

/**
 * Hybrid search over the store: vectors for new passages, the query's vector for a search, the
 * scope's missing vectors filled as it is searched, and reindexing. Without a model, or when the
 * model fails, everything still works by BM25 alone.
 */
export class AgentVectors {
  constructor(
    private readonly store: MemoryStore,
    private readonly embeddings: PassageEmbeddings,
  ) {}

  /** The handle of the agent's embedding model, or null for BM25 only. */
  handleOf(agentId: string): string | null {
    return this.embeddings.handleFor(this.store.agentEmbedding(agentId));
  }

  /** Embeds just-added passages; when the model fails they stay without vectors, to be filled later. */
  async addVectors(agentId: string, added: PassageRecord[]): Promise<void> {
    const handle = this.handleOf(agentId);
    if (handle === null || added.length === 0) return;
    const got = await this.embeddings.tryEmbed(handle, added.map((p) => p.text), this.checkpointOf(agentId), 'insert');
    if (got) this.keep(added, got);
  }

  /** The store's search, fused with vector similarity when the agent has a model that answers. */
  async search(agentId: string, opts: SearchOptions): Promise<ScoredPassageRecord[]> {
    const handle = this.handleOf(agentId);
    if (handle === null || queryWords(opts.query).length === 0) return this.store.searchPassages(agentId, opts);
    const checkpoint = this.checkpointOf(agentId);
    const query = await this.embeddings.tryEmbed(handle, [opts.query], checkpoint, 'search');
    const vector = query?.vectors[0];
    if (!query || !vector) return this.store.searchPassages(agentId, opts);
    const hybrid = { ...opts, near: { model: query.model, vector } };
    const first = this.store.search(agentId, hybrid);
    // the common case, every candidate with its vector, costs one search and no second look
    if (first.unvectored === 0) return first.results;
    const missing = this.store.withoutVectors(agentId, opts, query.model, LAZY_FILL);
    if (missing.length === 0) return first.results;
    const filled = await this.embeddings.tryEmbed(handle, missing.map((p) => p.text), checkpoint, 'fill');
    if (!filled) return first.results;
    this.keep(missing, filled);
    return this.store.searchPassages(agentId, hybrid);
  }

  /**
   * Embeds up to `limit` of the agent's passages that have no vector of its model (newest first);
   * `remaining` counts those still without one. Null when the agent has no model; throws when it fails.
   */
  async reindex(agentId: string, limit: number): Promise<{ model: string; embedded: number; remaining: number } | null> {
    const handle = this.handleOf(agentId);
    if (handle === null) return null;
    const model = this.embeddings.modelName(handle);
    const todo = this.store.withoutVectors(agentId, { tags: [], match: 'any' }, model, limit);
    if (todo.length > 0) this.keep(todo, await this.embeddings.embed(handle, todo.map((p) => p.text), this.checkpointOf(agentId), 'reindex'));
    return { model, embedded: todo.length, remaining: this.store.countWithoutVectors(agentId, model) };
  }

  /** Stores the vectors made for the passages, in their order. */
  private keep(passages: { id: string }[], made: Vectors): void {
    this.store.setVectors(passages.map((p, i) => ({ id: p.id, model: made.model, vector: made.vectors[i] ?? [] })));
  }

  /** The checkpoint directory the agent belongs to (its svc_checkpoint block), where its embedding costs are logged. */
  private checkpointOf(agentId: string): string | null {
    return this.store.getBlock(agentId, CHECKPOINT_BLOCK);
  }
}
