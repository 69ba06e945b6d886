import type { NodeMemory } from './node-memory.ts';

/** Core-memory blocks holding the experiment's stable facts, one block per field. */
export const CONTEXT_BLOCKS = ['experiment_goal', 'primary_metric', 'higher_is_better', 'metric_rationale', 'hardware_spec', 'selected_idea'] as const;
export type ContextField = (typeof CONTEXT_BLOCKS)[number];

/** Every field, null when not recorded. Blocks hold text; higher_is_better reads back as a boolean. */
export type ExperimentContext = Record<Exclude<ContextField, 'higher_is_better'>, string | null> & { higher_is_better: boolean | null };

export async function readExperimentContext(memory: NodeMemory): Promise<ExperimentContext> {
  const blocks = await memory.blocks(CONTEXT_BLOCKS);
  const hib = blocks.higher_is_better?.trim().toLowerCase();
  return {
    experiment_goal: blocks.experiment_goal ?? null,
    primary_metric: blocks.primary_metric ?? null,
    higher_is_better: hib === 'true' ? true : hib === 'false' ? false : null,
    metric_rationale: blocks.metric_rationale ?? null,
    hardware_spec: blocks.hardware_spec ?? null,
    selected_idea: blocks.selected_idea ?? null,
  };
}

/**
 * Records the given fields (the run does, when it knows them); fields left out keep their value.
 * A selected idea given as an object is stored as its JSON text.
 */
export async function writeExperimentContext(memory: NodeMemory, fields: Partial<Record<ContextField, string | boolean | Record<string, unknown>>>): Promise<void> {
  const values: Record<string, string> = {};
  for (const label of CONTEXT_BLOCKS) {
    const v = fields[label];
    if (v !== undefined) values[label] = typeof v === 'string' ? v : typeof v === 'boolean' ? String(v) : JSON.stringify(v);
  }
  await memory.setBlocks(values);
}
