import type { LanguageModel } from 'ai';
import type { Config } from '../core/config/config.ts';
import { mergedEnv } from '../core/config/environment.ts';
import type { Env } from '../core/config/env-vars.ts';
import { describeFailure, classifyFailure } from './failures.ts';
import { readLimits } from './limits.ts';
import { apiKey, sdkModel } from './providers.ts';
import { withRetries, RetriesExhausted } from './retry.ts';
import { type ModelChoice, type ModelRole, modelFor } from './route.ts';
import { sdkComplete } from './sdk-call.ts';
import type { Completion, CompletionRequest } from './types.ts';

export type ModelClientOptions = {
  cfg: Config;
  /** the run's checkpoint: cost ledger, cassette and budget live there; null for none */
  checkpointDir?: string | null;
  /** the environment for keys and the model layer's variables; the config's environment with its .env files when absent */
  env?: Env;
  /** a fetch for every request (a proxy, a test) */
  fetch?: typeof fetch;
};

export type ModelClient = {
  /** which model serves a role, and why */
  choice(role: ModelRole): ModelChoice;
  complete(req: CompletionRequest): Promise<Completion>;
};

export function createModelClient(opts: ModelClientOptions): ModelClient {
  const env = opts.env ?? mergedEnv(opts.cfg.env, opts.cfg.dotenv);
  const limits = readLimits(env);
  const choices = new Map<ModelRole, ModelChoice>();
  const models = new Map<ModelRole, Promise<LanguageModel>>();

  const choice = (role: ModelRole): ModelChoice => {
    let c = choices.get(role);
    if (!c) choices.set(role, (c = modelFor(role, opts.cfg)));
    return c;
  };

  const sdkModelFor = (c: ModelChoice): Promise<LanguageModel> => {
    let m = models.get(c.role);
    if (!m) models.set(c.role, (m = sdkModel(c, env, opts.fetch)));
    return m;
  };

  async function complete(req: CompletionRequest): Promise<Completion> {
    const c = choice(req.role);
    apiKey(c, env);
    const model = await sdkModelFor(c);
    const timeout = AbortSignal.timeout(limits.timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    try {
      const answer = await withRetries(() => sdkComplete(model, c, req, signal), {
        maxRetries: limits.maxRetries,
        deadline: Date.now() + limits.timeoutMs,
        signal,
        classify: classifyFailure,
      });
      return { ...answer, costUsd: 0 };
    } catch (err) {
      if (req.signal?.aborted) throw req.signal.reason;
      const last = err instanceof RetriesExhausted ? err.last : err;
      const attempts = err instanceof RetriesExhausted ? err.attempts : 1;
      throw describeFailure(last, { choice: c, attempts, timeoutS: timeout.aborted ? limits.timeoutMs / 1000 : null });
    }
  }

  return { choice, complete };
}
