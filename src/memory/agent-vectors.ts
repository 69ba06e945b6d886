import { EMBED_BATCH } from '../llm/embeddings.ts';
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

/** What reindexing embeds to learn the length of a model's vectors. */
const DIMENSION_PROBE = 'dimensions';

/**
 * Hybrid search over the store: vectors for new passages, the query's vector for a search, the
 * scope's missing vectors filled as it is searched, and reindexing. Without a model, or when the
 * model fails, everything still works by BM25 alone.
 */
export class AgentVectors {
  private readonly dims = new Map<string, number | undefined>();

  constructor(
    private readonly store: MemoryStore,
    private readonly embeddings: PassageEmbeddings,
  ) {}

  /** The handle of the agent's embedding model, or null for BM25 only. */
  handleOf(agentId: string): string | null {
    return this.embeddings.handleFor(this.store.agentEmbedding(agentId));
  }

  /** Embeds just-added passages; those the model fails on stay without vectors, to be filled later. */
  async addVectors(agentId: string, added: PassageRecord[]): Promise<void> {
    const handle = this.handleOf(agentId);
    if (handle !== null) await this.embedInBatches(agentId, handle, added, 'insert', false);
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
    // those without a vector of the model, or with one of another length (the model behind the name changed)
    const missing = this.store.withoutVectors(agentId, opts, query.model, LAZY_FILL, vector.length);
    if ((await this.embedInBatches(agentId, handle, missing, 'fill', false)) === 0) return first.results;
    return this.store.searchPassages(agentId, hybrid);
  }

  /**
   * Embeds up to `limit` of the agent's passages that have no vector of its model, or one of
   * another length (newest first); `remaining` counts those still without one. Null when the agent
   * has no model; throws when it fails.
   */
  async reindex(agentId: string, limit: number): Promise<{ model: string; embedded: number; remaining: number } | null> {
    const handle = this.handleOf(agentId);
    if (handle === null) return null;
    const model = this.embeddings.modelName(handle);
    const dims = await this.dimsOf(agentId, handle);
    const todo = this.store.withoutVectors(agentId, { tags: [], match: 'any' }, model, limit, dims);
    await this.embedInBatches(agentId, handle, todo, 'reindex', true);
    return { model, embedded: todo.length, remaining: this.store.countWithoutVectors(agentId, model, dims) };
  }

  /** The length of the model's vectors, from one embedding of a short text, asked once per model: a stored vector of another length is stale. */
  private async dimsOf(agentId: string, handle: string): Promise<number | undefined> {
    if (!this.dims.has(handle)) {
      const made = await this.embeddings.embed(handle, [DIMENSION_PROBE], this.checkpointOf(agentId), 'reindex');
      this.dims.set(handle, made.vectors[0]?.length || undefined);
    }
    return this.dims.get(handle);
  }

  /**
   * Embeds the passages a model batch at a time, storing each batch's vectors as they come, so a
   * failing batch loses only itself; the batches after it are not asked. `strict`: its error is
   * thrown; otherwise the rest wait for a later fill. Returns how many passages got vectors.
   */
  private async embedInBatches(agentId: string, handle: string, passages: { id: string; text: string }[], op: string, strict: boolean): Promise<number> {
    const checkpoint = this.checkpointOf(agentId);
    let kept = 0;
    for (let i = 0; i < passages.length; i += EMBED_BATCH) {
      const batch = passages.slice(i, i + EMBED_BATCH);
      const texts = batch.map((p) => p.text);
      const made = strict ? await this.embeddings.embed(handle, texts, checkpoint, op) : await this.embeddings.tryEmbed(handle, texts, checkpoint, op);
      if (!made) break;
      kept += this.keep(batch, made);
    }
    return kept;
  }

  /** Stores the vectors made for the passages, in their order; returns how many were stored. */
  private keep(passages: { id: string }[], made: Vectors): number {
    const items = passages.flatMap((p, i) => {
      const vector = made.vectors[i];
      return vector ? [{ id: p.id, model: made.model, vector }] : [];
    });
    this.store.setVectors(items);
    return items.length;
  }

  /** The checkpoint directory the agent belongs to (its svc_checkpoint block), where its embedding costs are logged. */
  private checkpointOf(agentId: string): string | null {
    return this.store.getBlock(agentId, CHECKPOINT_BLOCK);
  }
}
