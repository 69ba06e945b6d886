import { type Env, envOnOff, envValue } from '../core/config/env-vars.ts';
import { InputError } from '../core/errors.ts';

/** The model layer's own variables (env-vars.ts), read and checked once per client. */
export type ModelLimits = {
  timeoutMs: number;
  maxRetries: number;
  /** null: no budget */
  budgetUsd: number | null;
  record: boolean;
  pricesFile: string | null;
  replayCassette: string | null;
};

export function readLimits(env: Env): ModelLimits {
  return {
    timeoutMs: number(env, 'SVC_LLM_TIMEOUT_S', { min: 0, exclusive: true }) * 1000,
    maxRetries: number(env, 'SVC_LLM_MAX_RETRIES', { min: 0, whole: true }),
    budgetUsd: envValue(env, 'SVC_BUDGET_USD') === null ? null : number(env, 'SVC_BUDGET_USD', { min: 0 }),
    record: envOnOff(env, 'SVC_LLM_RECORD'),
    pricesFile: envValue(env, 'SVC_MODEL_PRICES'),
    replayCassette: envValue(env, 'SVC_REPLAY_CASSETTE'),
  };
}

function number(env: Env, name: string, rule: { min: number; exclusive?: boolean; whole?: boolean }): number {
  const raw = envValue(env, name) ?? '';
  const n = Number(raw.trim());
  const ok = raw.trim() !== '' && Number.isFinite(n) && (rule.exclusive ? n > rule.min : n >= rule.min) && (!rule.whole || Number.isInteger(n));
  if (!ok) {
    const kind = rule.whole ? 'whole number' : 'number';
    throw new InputError(`${name} must be a ${kind} ${rule.exclusive ? 'above' : 'of at least'} ${rule.min}, got '${raw}'`);
  }
  return n;
}

