/**
 * The viewpoints of the discussing agents, in order: agent i takes persona i. Distinct viewpoints
 * are what make the critique rounds find different weaknesses.
 */
export const PERSONAS: readonly string[] = [
  'a methods researcher who looks for an algorithmic idea that is genuinely new',
  'a systems engineer who cares about what can be built and measured with the resources at hand',
  'a skeptical reviewer who looks for flaws in claims, baselines and evaluation',
  'an empiricist who designs controlled comparisons, baselines and ablations',
  'a theorist who asks why an idea should work and what it predicts',
  'a reproducibility advocate who wants every result rerunnable and every number traceable',
  'an interdisciplinary researcher who borrows techniques from neighbouring fields',
  'a practitioner who asks which result would change how people work',
];

export const MAX_AGENTS = PERSONAS.length;

export function persona(index: number): string {
  return PERSONAS[index % PERSONAS.length] as string;
}
