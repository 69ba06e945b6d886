import type { EmbeddingModel } from 'ai';
import type { Config } from '../core/config/config.ts';
import { cappedFetch, RetriesExhausted, withRetries } from '../core/outbound.ts';
import { withoutCredentials } from '../core/text.ts';
import { isMapping } from '../core/values.ts';
import { callContext, type CallContextOptions } from './call-context.ts';
import { embeddingKey, recordExchange, type RecordedEmbeddings } from './cassette.ts';
import { ModelAnswerError } from './errors.ts';
import { classifyFailure, describeFailure } from './failures.ts';
import { costRecordOf } from './ledger.ts';
import { apiKey, MAX_ANSWER_BYTES, sdkEmbeddingModel } from './providers.ts';
import { embeddingHandle } from './embedding-handle.ts';
import { embeddingChoice, type ModelChoice } from './route.ts';
import type { CallMeta } from './types.ts';

/** Texts per request: well under every provider's limit (OpenAI takes 2,048), small enough to retry cheaply. */
export const EMBED_BATCH = 64;

export type Embedder = {
  /** the embedding model, its backend, and why */
  readonly choice: ModelChoice;
  /** one vector per text, in order; asked in batches of EMBED_BATCH */
  embed(texts: readonly string[], opts?: { meta?: CallMeta; signal?: AbortSignal }): Promise<number[][]>;
};

export type EmbedderOptions = CallContextOptions & {
  /** `[backend/]model`, e.g. `providera/text-embedding-3-small` or `localllm/nomic-embed-text` */
  handle: string;
  /** where the handle was set, for messages (a setting or variable name) */
  source: string;
  fetch?: typeof fetch;
};


/**
 * The one way svc turns texts into vectors, alongside createModelClient: the same routing, keys,
 * budget, retries, cost ledger (each batch a line with its embedding tokens) and cassette (each
 * batch recorded under the key of its texts, answered from it under the replay backend).
 */
export function createEmbedder(opts: EmbedderOptions): Embedder {
  const ctx = callContext(opts);
  const { env, limits, ledger, prices } = ctx;
  const choice = embeddingChoice(opts.handle, opts.source, opts.cfg);
  let model: Promise<EmbeddingModel | null> | null = null;

  async function ask(batch: readonly string[], signal: AbortSignal): Promise<RecordedEmbeddings> {
    model ??= sdkEmbeddingModel(choice, env, opts.fetch);
    const sdk = await model;
    const once = sdk ? () => sdkEmbed(sdk, batch, signal) : () => daemonEmbed(choice, batch, signal, opts.fetch);
    try {
      return await withRetries(once, { maxRetries: limits.maxRetries, deadline: Date.now() + limits.timeoutMs, signal, classify: classifyFailure });
    } catch (err) {
      const last = err instanceof RetriesExhausted ? err.last : err;
      const attempts = err instanceof RetriesExhausted ? err.attempts : 1;
      throw describeFailure(last, { choice, attempts, timeoutS: null, key: apiKey(choice, env) });
    }
  }

  async function embedBatch(batch: readonly string[], meta: CallMeta | undefined, given: AbortSignal | undefined): Promise<number[][]> {
    const key = embeddingKey(choice.model, batch, ctx.volatile);
    const record = { role: 'embedding', meta: { component: 'embedding', op: 'embedding', ...meta }, model: choice.model, nodeId: env.SVC_CURRENT_NODE_ID };
    if (choice.backend === 'replay') {
      const answer = ctx.player().nextEmbeddings(key, choice.model, batch.length);
      ledger.append(costRecordOf({ ...record, backend: 'replay', usage: tokenUsage(answer.tokens), price: { costUsd: 0, source: 'replay' }, latencyMs: 0, embeddingTokens: answer.tokens }));
      return answer.embeddings;
    }
    apiKey(choice, env);
    ledger.checkBudget();
    const timeout = AbortSignal.timeout(limits.timeoutMs);
    const started = performance.now();
    let answer: RecordedEmbeddings;
    try {
      answer = checked(await ask(batch, given ? AbortSignal.any([given, timeout]) : timeout), batch.length, choice);
    } catch (err) {
      if (given?.aborted) throw given.reason;
      if (timeout.aborted) throw describeFailure(err, { choice, attempts: 1, timeoutS: limits.timeoutMs / 1000, key: null });
      throw err;
    }
    const usage = tokenUsage(answer.tokens);
    const price = await prices.price(choice.backend, choice.model, choice.baseUrl, usage);
    ledger.append(costRecordOf({ ...record, backend: choice.backend, usage, price, latencyMs: performance.now() - started, embeddingTokens: answer.tokens }));
    if (ctx.recordTo) recordExchange(ctx.recordTo, { key, role: 'embedding', model: choice.model, backend: choice.backend, recorded_at: new Date().toISOString(), text_count: batch.length, response: answer });
    return answer.embeddings;
  }

  return {
    choice,
    async embed(texts, o = {}) {
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += EMBED_BATCH) out.push(...(await embedBatch(texts.slice(i, i + EMBED_BATCH), o.meta, o.signal)));
      return out;
    },
  };
}

/** An embedder for the handle a config setting names, or null when it names none. */
export function embedderFor(cfg: Config, value: string | null | undefined, source: string, more: Omit<EmbedderOptions, 'cfg' | 'handle' | 'source'> = {}): Embedder | null {
  const handle = embeddingHandle(value);
  return handle ? createEmbedder({ ...more, cfg, handle, source }) : null;
}

const tokenUsage = (tokens: number) => ({ promptTokens: tokens, completionTokens: 0, totalTokens: tokens });

async function sdkEmbed(model: EmbeddingModel, values: readonly string[], abortSignal: AbortSignal): Promise<RecordedEmbeddings> {
  const { embedMany } = await import('ai');
  const result = await embedMany({ model, values: [...values], maxRetries: 0, abortSignal });
  return { embeddings: result.embeddings.map((e) => [...e]), tokens: result.usage.tokens };
}

/**
 * The local daemon's own endpoint, `POST /api/embed` with `{model, input}`; its failures are
 * raised as the SDK's APICallError, so they are retried and described as every other backend's.
 */
async function daemonEmbed(choice: ModelChoice, input: readonly string[], signal: AbortSignal, given?: typeof globalThis.fetch): Promise<RecordedEmbeddings> {
  const url = `${choice.baseUrl}/api/embed`;
  const body = { model: choice.model, input };
  const tooLarge = (origin: string) => new ModelAnswerError(`the model server at ${origin} sent more than ${MAX_ANSWER_BYTES} bytes for one answer`);
  const fetch = cappedFetch(given ?? ((i, init) => globalThis.fetch(i, init)), MAX_ANSWER_BYTES, tooLarge);
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // described below
  }
  if (!res.ok) {
    const { APICallError } = await import('ai');
    const said = isMapping(json) && typeof json.error === 'string' ? json.error : text.slice(0, 300);
    throw new APICallError({ message: said, url, requestBodyValues: body, statusCode: res.status, responseHeaders: Object.fromEntries(res.headers), responseBody: text });
  }
  if (!isMapping(json) || !Array.isArray(json.embeddings)) throw new ModelAnswerError(`localllm at ${withoutCredentials(choice.baseUrl ?? '')} answered /api/embed without an embeddings list`);
  return { embeddings: json.embeddings as number[][], tokens: typeof json.prompt_eval_count === 'number' ? json.prompt_eval_count : 0 };
}

/** One finite vector per text, all of one length: anything else is no answer to build a search on. */
function checked(answer: RecordedEmbeddings, count: number, choice: ModelChoice): RecordedEmbeddings {
  const { embeddings } = answer;
  const dims = embeddings[0]?.length ?? 0;
  const ok = embeddings.length === count && dims > 0 && embeddings.every((v) => Array.isArray(v) && v.length === dims && v.every((x) => typeof x === 'number' && Number.isFinite(x)));
  if (!ok) throw new ModelAnswerError(`${choice.backend} answered ${embeddings.length} embeddings for ${count} texts, not one vector of numbers each of one length (embedding model ${choice.model})`);
  return answer;
}
