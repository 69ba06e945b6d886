import { type Env, envValue } from '../core/config/env-vars.ts';
import { InputError } from '../core/errors.ts';
import type { Workflow } from '../schema/workflow.ts';

export const COMPOSITES = ['harmonic_mean', 'arithmetic_mean', 'weighted_min', 'geometric_mean'] as const;
export type Composite = (typeof COMPOSITES)[number];
export const AXIS_MODES = ['dynamic', 'legacy', 'custom'] as const;
export type AxisMode = (typeof AXIS_MODES)[number];

export type CustomAxis = { name: string; description: string; weight: number };

/** How nodes are scored: the workflow's evaluator block with the environment's overrides. */
export type EvaluatorSettings = {
  composite: Composite;
  axisMode: AxisMode;
  customAxes: CustomAxis[];
  axisWeights: Record<string, number>;
};

/**
 * SVC_COMPOSITE and SVC_AXIS_MODE win over the workflow (the dashboard launches a run with them).
 * A value that is not one of the choices is refused, naming the variable.
 */
export function evaluatorSettings(workflow: Workflow, env: Env): EvaluatorSettings {
  const block = workflow.evaluator;
  const axisMode = choice(env, 'SVC_AXIS_MODE', AXIS_MODES, block.axis_mode as AxisMode);
  // custom axes with nothing to score would give every node 0 without saying why
  if (axisMode === 'custom' && block.custom_axes.length === 0) {
    throw new InputError('evaluator axis_mode is custom but evaluator.custom_axes is empty', 'list the axes as {name, description, weight}, or use axis_mode dynamic');
  }
  return {
    composite: choice(env, 'SVC_COMPOSITE', COMPOSITES, block.composite as Composite),
    axisMode,
    customAxes: block.custom_axes.map((a) => ({ name: a.name, description: a.description, weight: a.weight })),
    axisWeights: { ...block.axis_weights },
  };
}

function choice<C extends string>(env: Env, name: string, choices: readonly C[], fallback: C): C {
  const raw = envValue(env, name);
  if (raw === null) return fallback;
  const value = raw.trim();
  if ((choices as readonly string[]).includes(value)) return value as C;
  throw new InputError(`${name} must be one of ${choices.join(', ')}, got '${value}'`, `unset it to use the workflow's evaluator block`);
}
