import { isMapping } from '../../core/values.ts';
import { type Env, envValue } from '../../core/config/env-vars.ts';
import { InputError } from '../../core/errors.ts';
import type { Workflow } from '../../schema/workflow.ts';

const GATE_MODES = ['off', 'warn', 'strict'] as const;
export type GateMode = (typeof GATE_MODES)[number];
export type Tolerance = { absolute: number; relative: number };

/** The claim gate policy in force: the workflow's, a caller's override laid over it, then the environment. */
export type GatePolicy = Workflow['claim_gate_policy'] & { mode: GateMode };

/**
 * The effective policy. `override` (the tool's policy argument: an object, or its JSON text as a
 * workflow template renders it) replaces the keys it gives; SVC_CLAIM_GATE_MODE and
 * SVC_COMPARISON_SCOPE win over both. Every bad value is an InputError naming its key.
 */
export function resolvePolicy(base: Workflow['claim_gate_policy'], override: unknown, env: Env): GatePolicy {
  const over = parseOverride(override);
  const policy = structuredClone(base) as GatePolicy;
  if (over.mode !== undefined) policy.mode = oneOf('policy.mode', over.mode, GATE_MODES);
  if (over.comparison_scope !== undefined) policy.comparison_scope = oneOf('policy.comparison_scope', over.comparison_scope, ['any', 'same_environment']);
  const tol = isMapping(over.numeric_match) ? over.numeric_match.default_tolerance : undefined;
  if (over.numeric_match !== undefined && !isMapping(over.numeric_match)) throw bad('policy.numeric_match', 'an object');
  if (tol !== undefined) {
    if (!isMapping(tol)) throw bad('policy.numeric_match.default_tolerance', 'an object {absolute, relative}');
    for (const k of ['absolute', 'relative'] as const) {
      if (tol[k] === undefined) continue;
      const v = tol[k];
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw bad(`policy.numeric_match.default_tolerance.${k}`, 'a number of at least 0');
      policy.numeric_match.default_tolerance[k] = v;
    }
  }
  if (over.blocking !== undefined) {
    const list = isMapping(over.blocking) ? over.blocking.block_on : undefined;
    if (!Array.isArray(list) || !list.every((x) => typeof x === 'string')) throw bad('policy.blocking.block_on', 'a list of finding types');
    policy.blocking.block_on = list;
  }
  const mode = envValue(env, 'SVC_CLAIM_GATE_MODE');
  if (mode !== null) policy.mode = oneOf('SVC_CLAIM_GATE_MODE', mode.trim(), GATE_MODES);
  const scope = envValue(env, 'SVC_COMPARISON_SCOPE');
  if (scope !== null) policy.comparison_scope = oneOf('SVC_COMPARISON_SCOPE', scope.trim(), ['any', 'same_environment']);
  policy.mode = oneOf('claim_gate_policy.mode', policy.mode, GATE_MODES);
  return policy;
}

function parseOverride(override: unknown): Record<string, unknown> {
  if (override === undefined || override === null || override === '') return {};
  let value = override;
  if (typeof override === 'string') {
    try {
      value = JSON.parse(override);
    } catch {
      throw new InputError('policy is not valid JSON', 'give the claim_gate_policy block as an object, or leave it out to use the workflow');
    }
  }
  if (!isMapping(value)) throw bad('policy', 'an object');
  return value;
}

function oneOf<C extends string>(what: string, value: unknown, choices: readonly C[]): C {
  if (typeof value === 'string' && (choices as readonly string[]).includes(value)) return value as C;
  throw new InputError(`${what} must be one of ${choices.join(', ')}, got ${JSON.stringify(value)}`);
}

function bad(what: string, should: string): InputError {
  return new InputError(`${what} must be ${should}`);
}
