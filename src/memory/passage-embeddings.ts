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
 * The embedding side of the memory server: which model embeds an agent's passages (the handle the
 * agent was created with, else the server's MEMBACKEND_EMBEDDING_CONFIG; none means BM25 only),
 * and the vectors of texts through the model layer's one embedding client. Each call's ledger line
 * goes to the agent's checkpoint when the agent names one (its svc_checkpoint block) and that
 * directory exists; otherwise no ledger file is written. A model that fails is reported once per
 * server, not once per request: a search then ranks by BM25 and new passages wait for their vectors.
 */
export class PassageEmbeddings {
  readonly serverHandle: string | null;
  private cfg: Config | null = null;
  private readonly embedders = new Map<string, Embedder>();
  private warned = false;

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
    const vectors = await embedder.embed(texts.map(passageBody), { meta: { component: 'memory', op } });
    return { model: embedder.choice.model, vectors };
  }

  /** As embed, but null when the model fails, which is warned about once per server. */
  async tryEmbed(handle: string, texts: string[], checkpointDir: string | null, op: string): Promise<Vectors | null> {
    try {
      return await this.embed(handle, texts, checkpointDir, op);
    } catch (err) {
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
      this.cfg ??= loadConfig({ env: this.env });
      embedder = createEmbedder({ cfg: this.cfg, handle, source: 'the memory agent\'s embedding (MEMBACKEND_EMBEDDING_CONFIG)', checkpointDir: ledger, env: this.env });
      this.embedders.set(key, embedder);
    }
    return embedder;
  }
}
