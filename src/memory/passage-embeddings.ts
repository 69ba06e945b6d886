import { type Config, loadConfig } from '../core/config/config.ts';
import { type Env, envValue } from '../core/config/env-vars.ts';
import { oneLine } from '../core/errors.ts';
import { logFor } from '../core/log.ts';
import { statOrNull } from '../core/paths.ts';
import { createEmbedder, type Embedder } from '../llm/embeddings.ts';
import { modelHandle } from './embedding-handle.ts';
import { passageBody } from './passage-text.ts';

export type Vectors = { model: string; vectors: number[][] };

/**
 * The server's embedding calls answer well within a memory client's wait (10 s by default), and
 * are not retried: a passage left without a vector is filled later, a search goes on by BM25. A
 * model whose failure was slow (a timeout) is not asked again for COOL_DOWN_MS, so a hung model
 * does not slow every request; one that refuses at once is asked again next time.
 */
const CALL_TIMEOUT_S = '3';
const COOL_DOWN_MS = 60_000;
const SLOW_FAILURE_MS = 1000;
/** Texts longer than this are cut before embedding: every model has an input limit, and a text over it would fail its whole batch on every try. */
export const MAX_EMBED_CHARS = 8000;

/**
 * The embedding side of the memory server: which model embeds an agent's passages (the handle the
 * agent was created with, else the server's MEMBACKEND_EMBEDDING_CONFIG; none means BM25 only),
 * and the vectors of texts through the model layer's one embedding client. Each call's ledger line
 * goes to the agent's checkpoint when the agent names one (its svc_checkpoint block) and that
 * directory exists; otherwise no ledger file is written. A model that fails is reported once per
 * server, not once per request: a search then ranks by BM25 and new passages wait for their vectors.
 */
export class PassageEmbeddings {
  readonly serverHandle: string | null;
  private readonly cfgs = new Map<string, Config>();
  private readonly embedders = new Map<string, Embedder>();
  private warned = false;
  private failedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly env: Env, handle: string | null = envValue(env, 'MEMBACKEND_EMBEDDING_CONFIG')) {
    this.serverHandle = modelHandle(handle);
  }

  /** The handle of the model for an agent created with `agentHandle`, or null for BM25 only. */
  handleFor(agentHandle: string | null): string | null {
    return modelHandle(agentHandle) ?? this.serverHandle;
  }

  /** The name of the model the handle routes to, which the vectors it makes are stored under. */
  modelName(handle: string): string {
    return this.embedder(handle, null).choice.model;
  }

  /** The vectors of the passages' bodies (the text before their metadata); throws the model layer's one-line error. */
  async embed(handle: string, texts: string[], checkpointDir: string | null, op: string): Promise<Vectors> {
    const embedder = this.embedder(handle, checkpointDir);
    const vectors = await embedder.embed(texts.map((t) => passageBody(t).slice(0, MAX_EMBED_CHARS)), { meta: { component: 'memory', op } });
    return { model: embedder.choice.model, vectors };
  }

  /** As embed, but null when the model fails (warned about once per server) or failed within the cool-down. */
  async tryEmbed(handle: string, texts: string[], checkpointDir: string | null, op: string): Promise<Vectors | null> {
    if (performance.now() - this.failedAt < COOL_DOWN_MS) return null;
    const started = performance.now();
    try {
      return await this.embed(handle, texts, checkpointDir, op);
    } catch (err) {
      if (performance.now() - started > SLOW_FAILURE_MS) this.failedAt = performance.now();
      if (!this.warned) {
        this.warned = true;
        logFor('svc memory').warn(`embedding model ${handle} failed: ${oneLine(err)}; searches rank by BM25 alone and new passages are stored without vectors until it answers (\`svc memory reindex\` fills them)`);
      }
      return null;
    }
  }

  private embedder(handle: string, checkpointDir: string | null): Embedder {
    const ledger = checkpointDir !== null && statOrNull(checkpointDir)?.isDirectory() ? checkpointDir : null;
    const key = `${handle}\u0000${ledger ?? ''}`;
    let embedder = this.embedders.get(key);
    if (!embedder) {
      const env = { ...this.env, SVC_LLM_TIMEOUT_S: CALL_TIMEOUT_S, SVC_LLM_MAX_RETRIES: '0' };
      embedder = createEmbedder({ cfg: this.config(ledger), handle, source: 'the memory agent\'s embedding (MEMBACKEND_EMBEDDING_CONFIG)', checkpointDir: ledger, env });
      this.embedders.set(key, embedder);
    }
    return embedder;
  }

  /** The settings of the agent's run (its checkpoint's workflow: the backend an unprefixed handle goes to), else the server's. */
  private config(checkpointDir: string | null): Config {
    const key = checkpointDir ?? '';
    let cfg = this.cfgs.get(key);
    if (!cfg) this.cfgs.set(key, (cfg = loadConfig({ env: this.env, ...(checkpointDir ? { checkpointDir } : {}) })));
    return cfg;
  }
}
