import { type Env, envValue } from '../core/config/env-vars.ts';
import { InputError, NotFoundError } from '../core/errors.ts';
import { withoutCredentials } from '../core/text.ts';
import { modelHandle } from './embedding-handle.ts';
import { type HttpOptions, MemoryServerError, requestJson } from './client-http.ts';
import { decodePassageText, encodePassageText } from './passage-text.ts';

export { agentNameFor } from './agent-name.ts';

/** A passage's vector as svc's server lists it and takes it back: the model, and base64 of its little-endian Float32 values. */
export type PassageVector = { model: string; data: string };
export type Passage = { id: string; text: string; tags: string[]; metadata: Record<string, unknown>; created_at: string; vector?: PassageVector };
export type ScoredPassage = Passage & { score: number };
export type MemoryClientOptions = {
  baseUrl: string;
  apiKey?: string | null;
  timeoutMs: number;
  fetch?: typeof fetch;
  /** Embedding handle for new agents (MEMBACKEND_EMBEDDING_CONFIG); default, none or absent: the server's own. */
  embedding?: string;
};
export type NewPassage = { text: string; tags: string[]; metadata: Record<string, unknown>; vector?: PassageVector };

type WirePassage = { id: string; text: string; tags?: string[] | null; created_at: string; vector?: PassageVector };
type WireResult = { id: string; content: string; tags?: string[] | null; timestamp: string; score?: number };

/** Passages per batch request to svc's server: well under its body and batch limits. */
const BATCH = 2000;
/** Page size of agent lists, and of passage lists from a server that cannot filter by tag (Letta). */
const PAGE = 1000;
/**
 * A Letta agent needs a model handle although only its archival memory is used: the free one.
 * Letta also refuses an agent without an embedding handle, so for Letta the embedding setting's
 * default stands for its free embedding handle too; svc's server is sent none (its own applies).
 */
const AGENT_MODEL = 'letta/letta-free';

/**
 * The memory backend over HTTP: svc's own server (`svc memory serve`) or a real Letta server,
 * through Letta's documented endpoints. svc's server also takes batches and tag-filtered lists;
 * against Letta the client adds one passage per request and filters lists itself.
 * Passage metadata travels inside the text (see passage-text.ts) and is decoded on read.
 */
export class MemoryClient {
  private readonly http: HttpOptions;
  private readonly embedding: string | null;
  private kind: Promise<'svc' | 'letta'> | null = null;

  constructor(opts: MemoryClientOptions) {
    this.http = { baseUrl: opts.baseUrl, apiKey: opts.apiKey, timeoutMs: opts.timeoutMs, fetch: opts.fetch };
    this.embedding = modelHandle(opts.embedding);
  }

  /** MEMBACKEND_BASE_URL, MEMBACKEND_API_KEY, MEMBACKEND_EMBEDDING_CONFIG and SVC_MEMORY_LETTA_TIMEOUT_S (seconds). */
  static fromEnv(env: Env): MemoryClient {
    const raw = envValue(env, 'SVC_MEMORY_LETTA_TIMEOUT_S') ?? '10';
    const seconds = Number(raw);
    if (!Number.isFinite(seconds) || seconds <= 0) throw new InputError(`SVC_MEMORY_LETTA_TIMEOUT_S must be a positive number of seconds, got '${raw}'`);
    return new MemoryClient({
      baseUrl: envValue(env, 'MEMBACKEND_BASE_URL') ?? 'http://localhost:8283',
      apiKey: envValue(env, 'MEMBACKEND_API_KEY'),
      timeoutMs: seconds * 1000,
      embedding: envValue(env, 'MEMBACKEND_EMBEDDING_CONFIG') ?? undefined,
    });
  }

  get baseUrl(): string {
    return this.http.baseUrl;
  }

  async health(): Promise<{ ok: true; version: string; server: 'svc' | 'letta' }> {
    const h = (await this.call('GET', '/v1/health/')) as { version?: unknown; server?: unknown } | null;
    const server = h?.server === 'svc' ? 'svc' : 'letta';
    this.kind = Promise.resolve(server);
    return { ok: true, version: String(h?.version ?? 'unknown'), server };
  }

  async findAgent(name: string): Promise<string | null> {
    const agents = (await this.call('GET', `/v1/agents/?name=${encodeURIComponent(name)}`)) as { id: string; name: string; created_at?: string }[];
    const same = agents.filter((a) => a.name === name).sort(byAge);
    return same[0]?.id ?? null;
  }

  /**
   * The agent's id, created when missing. svc's server refuses a second agent of a name (409), so
   * racing callers agree; on Letta, which allows duplicates, the oldest agent of the name wins and a
   * duplicate this call made is removed.
   */
  async ensureAgent(name: string): Promise<string> {
    const found = await this.findAgent(name);
    if (found) return found;
    let created: { id: string };
    try {
      const embedding = this.embedding ?? ((await this.serverKind()) === 'svc' ? undefined : AGENT_MODEL);
      created = (await this.call('POST', '/v1/agents/', { name, tags: [], memory_blocks: [], model: AGENT_MODEL, embedding })) as { id: string };
    } catch (err) {
      const raced = err instanceof MemoryServerError && err.status === 409 ? await this.findAgent(name) : null;
      if (raced) return raced;
      throw err;
    }
    if ((await this.serverKind()) === 'svc') return created.id;
    const winner = (await this.findAgent(name)) ?? created.id;
    if (winner !== created.id) await this.deleteAgent(created.id);
    return winner;
  }

  /** Every agent, page by page (Letta answers 50 a page unless asked for more). */
  async listAgents(): Promise<{ id: string; name: string }[]> {
    const out: { id: string; name: string }[] = [];
    for (let after = ''; ; ) {
      const page = (await this.call('GET', `/v1/agents/?limit=${PAGE}${after ? `&after=${encodeURIComponent(after)}` : ''}`)) as { id: string; name: string }[];
      out.push(...page.map((a) => ({ id: a.id, name: a.name })));
      if (page.length < PAGE) return out;
      after = page[page.length - 1]?.id ?? '';
    }
  }

  async deleteAgent(id: string): Promise<void> {
    await this.call('DELETE', `/v1/agents/${encodeURIComponent(id)}`);
  }

  async addPassages(agentId: string, items: NewPassage[]): Promise<Passage[]> {
    if (items.length === 0) return [];
    const path = `/v1/agents/${encodeURIComponent(agentId)}/archival-memory`;
    const wire = items.map((p) => ({ text: encodePassageText(p.text, p.metadata), tags: p.tags }));
    const out: Passage[] = [];
    if ((await this.serverKind()) === 'svc') {
      // svc's server keeps a vector carried over (from a backup) instead of embedding the text again
      items.forEach((p, i) => p.vector && Object.assign(wire[i] as object, { vector: p.vector }));
      for (let i = 0; i < wire.length; i += BATCH) {
        const added = (await this.call('POST', path, { passages: wire.slice(i, i + BATCH) })) as WirePassage[];
        out.push(...added.map(passageOf));
      }
      return out;
    }
    for (const p of wire) out.push(...((await this.call('POST', path, p)) as WirePassage[]).map(passageOf));
    return out;
  }

  /**
   * Oldest first, all of them unless `limit` is given, read in pages; with tags, only passages having
   * any of them (svc's server filters, for Letta the client does). With `vectors`, each passage's
   * stored vector comes along (svc's server only).
   */
  async listPassages(agentId: string, opts: { tags?: string[]; limit?: number; after?: string; vectors?: boolean } = {}): Promise<Passage[]> {
    const tags = opts.tags ?? [];
    const limit = opts.limit ?? Number.POSITIVE_INFINITY;
    const svc = tags.length > 0 || opts.vectors ? (await this.serverKind()) === 'svc' : false;
    const serverFilters = tags.length === 0 || svc;
    const vectors = opts.vectors && svc ? '&include_vectors=true' : '';
    const wanted = new Set(tags);
    const out: Passage[] = [];
    for (let after = opts.after; out.length < limit; ) {
      const size = serverFilters ? Math.min(PAGE, limit - out.length) : PAGE;
      const query = `?ascending=true&limit=${size}${after ? `&after=${encodeURIComponent(after)}` : ''}${serverFilters ? tagQuery(tags) : ''}${vectors}`;
      const page = (await this.call('GET', `/v1/agents/${encodeURIComponent(agentId)}/archival-memory${query}`)) as WirePassage[];
      for (const p of page) if (out.length < limit && (serverFilters || (p.tags ?? []).some((t) => wanted.has(t)))) out.push(passageOf(p));
      if (page.length < size) break;
      after = page[page.length - 1]?.id;
    }
    return out;
  }

  /** Best first; with tags, only passages having any of them. Letta gives no score: rank order is kept as 1/(1+rank). */
  async searchPassages(agentId: string, query: string, opts: { tags?: string[]; topK: number }): Promise<ScoredPassage[]> {
    if (opts.topK <= 0) return [];
    const path = `/v1/agents/${encodeURIComponent(agentId)}/archival-memory/search?query=${encodeURIComponent(query)}&top_k=${opts.topK}&tag_match_mode=any${tagQuery(opts.tags ?? [])}`;
    const answer = (await this.call('GET', path)) as { results?: WireResult[] };
    return (answer.results ?? []).map((r, i) => ({
      ...passageOf({ id: r.id, text: r.content, tags: r.tags, created_at: r.timestamp }),
      score: typeof r.score === 'number' ? r.score : 1 / (1 + i),
    }));
  }

  /**
   * Embeds up to `limit` of the agent's passages that have no vector yet (svc's server only: Letta
   * embeds every passage as it is added); `remaining` counts those still without one.
   */
  async reindexPassages(agentId: string, limit: number): Promise<{ model: string; embedded: number; remaining: number }> {
    if ((await this.serverKind()) !== 'svc') throw new InputError(`the memory server at ${withoutCredentials(this.baseUrl)} is Letta, which embeds passages as they are added: nothing to reindex`);
    return (await this.call('POST', `/v1/agents/${encodeURIComponent(agentId)}/archival-memory/reindex?limit=${limit}`)) as { model: string; embedded: number; remaining: number };
  }

  async deletePassage(agentId: string, id: string): Promise<void> {
    await this.call('DELETE', `/v1/agents/${encodeURIComponent(agentId)}/archival-memory/${encodeURIComponent(id)}`);
  }

  /** The block's value, or null when the agent has no block of that label. */
  async getBlock(agentId: string, label: string): Promise<string | null> {
    try {
      const block = (await this.call('GET', blockPath(agentId, label))) as { value?: unknown };
      return typeof block.value === 'string' ? block.value : null;
    } catch (err) {
      if (err instanceof NotFoundError) return null;
      throw err;
    }
  }

  /** Sets the block, creating it when missing (on Letta: a new block attached to the agent). */
  async setBlock(agentId: string, label: string, value: string): Promise<void> {
    try {
      await this.call('PATCH', blockPath(agentId, label), { value });
    } catch (err) {
      if (!(err instanceof NotFoundError) || (await this.serverKind()) === 'svc') throw err;
      const block = (await this.call('POST', '/v1/blocks/', { label, value, limit: Math.max(5000, value.length) })) as { id: string };
      await this.call('PATCH', `/v1/agents/${encodeURIComponent(agentId)}/core-memory/blocks/attach/${encodeURIComponent(block.id)}`);
    }
  }

  private call(method: string, path: string, body?: unknown): Promise<unknown> {
    return requestJson(this.http, method, path, body);
  }

  /** Which server this is, asked once (a failed probe is asked again next time). */
  private serverKind(): Promise<'svc' | 'letta'> {
    this.kind ??= this.health().then(
      (h) => h.server,
      (err) => {
        this.kind = null;
        throw err;
      },
    );
    return this.kind;
  }
}

function passageOf(p: WirePassage): Passage {
  const { body, metadata } = decodePassageText(p.text);
  const passage: Passage = { id: p.id, text: body, tags: p.tags ?? [], metadata, created_at: p.created_at };
  if (p.vector) passage.vector = p.vector;
  return passage;
}

const tagQuery = (tags: string[]): string => tags.map((t) => `&tags=${encodeURIComponent(t)}`).join('');
const blockPath = (agentId: string, label: string) => `/v1/agents/${encodeURIComponent(agentId)}/core-memory/blocks/${encodeURIComponent(label)}`;
const byAge = (a: { id: string; created_at?: string }, b: { id: string; created_at?: string }) =>
  (a.created_at ?? '').localeCompare(b.created_at ?? '') || a.id.localeCompare(b.id);
