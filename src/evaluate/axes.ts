import type { IdeaFile } from '../schema/checkpoint.ts';
import type { EvaluatorSettings } from './settings.ts';

/** One axis the judge scores a node on. */
export type Axis = { name: string; description: string; weight: number };

export const LEGACY_AXES: readonly Axis[] = [
  { name: 'measurement_validity', description: 'the numbers come from real runs of the code and measure what they claim to', weight: 0.2 },
  { name: 'comparative_rigor', description: 'results are compared with a baseline or alternative under the same conditions', weight: 0.2 },
  { name: 'novelty', description: 'the approach goes beyond the obvious or the already known', weight: 0.2 },
  { name: 'reproducibility', description: 'code, settings and commands are there to rerun the experiment and get the same numbers', weight: 0.2 },
  { name: 'clarity_of_contribution', description: 'what this node adds, and why it matters, is stated plainly', weight: 0.2 },
];

const ALIGNMENT_AXIS: Axis = {
  name: 'claim_implementation_alignment',
  description: 'what the node claims matches what its code actually implements and measures',
  weight: 0.05,
};

const PLAN_AXIS_WEIGHT = 0.05;
/** a plan with dozens of tags would drown the five floor axes */
const MAX_PLAN_AXES = 8;
/** `§baseline`, `§ ablation-study`: the tag is the word after the sign */
const PLAN_TAG_RE = /§\s*([A-Za-z][A-Za-z0-9_-]*)/g;

/**
 * The axes of a mode. legacy: the five generic axes. dynamic: those five, the claim/implementation
 * alignment axis and one axis per §-tag of the active idea's experiment plan. custom: the
 * workflow's custom_axes. Then axis_weights sets the weight of every axis it names exactly — its
 * keys are never translated to custom names, so a legacy name does not touch a custom axis.
 */
export function axesFor(settings: EvaluatorSettings, idea: IdeaFile | null): Axis[] {
  const base = settings.axisMode === 'legacy' ? [...LEGACY_AXES] : settings.axisMode === 'custom' ? settings.customAxes : [...LEGACY_AXES, ALIGNMENT_AXIS, ...planAxes(idea)];
  return base.map((a) => (Object.hasOwn(settings.axisWeights, a.name) ? { ...a, weight: settings.axisWeights[a.name] as number } : { ...a }));
}

/** One axis per distinct §-tag of the active idea's experiment plan, in order of appearance. */
export function planAxes(idea: IdeaFile | null): Axis[] {
  const plan = activeIdea(idea)?.experiment_plan;
  const text = typeof plan === 'string' ? plan : plan === undefined || plan === null ? '' : JSON.stringify(plan);
  const seen = new Set<string>();
  const axes: Axis[] = [];
  for (const m of text.matchAll(PLAN_TAG_RE)) {
    const tag = (m[1] ?? '').toLowerCase().replace(/-+/g, '_');
    const name = `plan_${tag}`;
    if (seen.has(name) || LEGACY_AXES.some((a) => a.name === name)) continue;
    seen.add(name);
    axes.push({ name, description: `the node advances the plan's §${m[1]} step`, weight: PLAN_AXIS_WEIGHT });
    if (axes.length === MAX_PLAN_AXES) break;
  }
  return axes;
}

/** The idea the run pursues: the one the root choice picked, else the first. */
export function activeIdea(idea: IdeaFile | null): IdeaFile['ideas'][number] | undefined {
  if (!idea || idea.ideas.length === 0) return undefined;
  const choice = idea._root_choice as { decision?: { target_idea_index?: unknown }; index?: unknown } | undefined;
  const raw = choice?.decision?.target_idea_index ?? choice?.index;
  const i = typeof raw === 'number' && Number.isInteger(raw) && raw >= 0 && raw < idea.ideas.length ? raw : 0;
  return idea.ideas[i];
}
