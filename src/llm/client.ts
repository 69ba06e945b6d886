import type { LanguageModel } from 'ai';
import { InputError } from '../core/errors.ts';
import { RetriesExhausted, withRetries } from '../core/outbound.ts';
import { recordExchange, requestKey } from './cassette.ts';
import { callContext, type CallContextOptions } from './call-context.ts';
import { classifyFailure, describeFailure } from './failures.ts';
import { completeJsonWith, type JsonCheck } from './json-answer.ts';
import { costRecordOf } from './ledger.ts';
import { apiKey, sdkModel } from './providers.ts';
import { type ModelChoice, type ModelRole, modelFor } from './route.ts';
import { sdkComplete } from './sdk-call.ts';
import type { Completion, CompletionRequest, RecordedCompletion } from './types.ts';

export type { CallMeta, ChatMessage, Completion, CompletionRequest, ToolCall, ToolSpec, Usage } from './types.ts';
export type { JsonCheck } from './json-answer.ts';
export type { ModelChoice, ModelRole } from './route.ts';

export type ModelClientOptions = CallContextOptions & {
  /** a fetch for every request (a proxy, a test) */
  fetch?: typeof fetch;
};

export type ModelClient = {
  /** which model serves a role, and why */
  choice(role: ModelRole): ModelChoice;
  /** why the role's model cannot be called, as far as is known without calling it (no model set, no key for its backend); null when it can be */
  unavailable(role: ModelRole): string | null;
  complete(req: CompletionRequest): Promise<Completion>;
  /** a JSON answer, parsed and checked, asked again with a corrective message `retries` times (default 1) */
  completeJson<T>(req: CompletionRequest, check?: JsonCheck, opts?: { retries?: number }): Promise<T>;
  /** the spend counted so far (every process writing the checkpoint's ledger included) */
  spentUsd(): number;
};

/**
 * The one way svc calls a language model: routes the role, refuses a call past the budget,
 * retries what is worth retrying, prices and records every answered call in the cost ledger, and
 * records the exchange to the checkpoint's cassette (or answers from it under the replay backend).
 */
export function createModelClient(opts: ModelClientOptions): ModelClient {
  const { env, limits, ledger, prices, recordTo, volatile, player } = callContext(opts);
  const choices = new Map<ModelRole, ModelChoice>();
  const models = new Map<ModelRole, Promise<LanguageModel>>();

  const choice = (role: ModelRole): ModelChoice => {
    let c = choices.get(role);
    if (!c) choices.set(role, (c = modelFor(role, opts.cfg)));
    return c;
  };

  async function ask(c: ModelChoice, req: CompletionRequest): Promise<RecordedCompletion> {
    let m = models.get(req.role);
    if (!m) models.set(req.role, (m = sdkModel(c, env, opts.fetch)));
    const model = await m;
    const timeout = AbortSignal.timeout(limits.timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    try {
      return await withRetries(() => sdkComplete(model, c, req, signal), { maxRetries: limits.maxRetries, deadline: Date.now() + limits.timeoutMs, signal, classify: classifyFailure });
    } catch (err) {
      if (req.signal?.aborted) throw req.signal.reason;
      const last = err instanceof RetriesExhausted ? err.last : err;
      const attempts = err instanceof RetriesExhausted ? err.attempts : 1;
      throw describeFailure(last, { choice: c, attempts, timeoutS: timeout.aborted ? limits.timeoutMs / 1000 : null, key: apiKey(c, env) });
    }
  }

  function replay(c: ModelChoice, req: CompletionRequest): Completion {
    const answer = player().next(requestKey(c.model, req, volatile), req.role, c.model);
    ledger.append(costRecordOf({ role: req.role, meta: req.meta, model: answer.model, backend: 'replay', usage: answer.usage, price: { costUsd: 0, source: 'replay' }, latencyMs: 0, nodeId: env.SVC_CURRENT_NODE_ID }));
    return { ...answer, backend: 'replay', costUsd: 0 };
  }

  async function complete(req: CompletionRequest): Promise<Completion> {
    const c = choice(req.role);
    if (!req.messages.length) throw new InputError(`the ${req.role} model request has no messages`);
    if (c.backend === 'replay') return replay(c, req);
    apiKey(c, env);
    ledger.checkBudget();
    const started = performance.now();
    const answer = await ask(c, req);
    const latencyMs = performance.now() - started;
    const price = await prices.price(c.backend, c.model, c.baseUrl, answer.usage);
    ledger.append(costRecordOf({ role: req.role, meta: req.meta, model: c.model, backend: c.backend, usage: answer.usage, price, latencyMs, nodeId: env.SVC_CURRENT_NODE_ID }));
    if (recordTo) {
      const entry = { key: requestKey(c.model, req, volatile), role: req.role, model: c.model, backend: c.backend, recorded_at: new Date().toISOString(), message_count: req.messages.length, response: answer };
      recordExchange(recordTo, entry);
    }
    return { ...answer, costUsd: price.costUsd };
  }

  function unavailable(role: ModelRole): string | null {
    try {
      const c = choice(role);
      if (c.backend !== 'replay') apiKey(c, env);
      return null;
    } catch (err) {
      if (err instanceof InputError) return err.message;
      throw err;
    }
  }

  return {
    choice,
    unavailable,
    complete,
    completeJson: <T>(req: CompletionRequest, check?: JsonCheck, o: { retries?: number } = {}) => completeJsonWith<T>(complete, req, check, o.retries ?? 1),
    spentUsd: () => ledger.summary().total_cost_usd,
  };
}
