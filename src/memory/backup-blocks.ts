import { parseLine } from '../core/json-object.ts';
import type { CoreSeedLine, Json } from './backup-format.ts';
import type { MemoryClient } from './client.ts';
import { CONTEXT_BLOCKS } from './research/experiment-context.ts';

/** Every core memory block a core_seed line carries. */
export const CORE_BLOCKS = ['persona', 'human', ...CONTEXT_BLOCKS] as const;
type CoreBlock = (typeof CORE_BLOCKS)[number];

/** The agent's core memory blocks by label; null for a block it does not have. */
export async function readCoreBlocks(client: MemoryClient, agentId: string): Promise<Record<CoreBlock, string | null>> {
  const values = await Promise.all(CORE_BLOCKS.map((label) => client.getBlock(agentId, label)));
  return Object.fromEntries(CORE_BLOCKS.map((label, i) => [label, values[i] ?? null])) as Record<CoreBlock, string | null>;
}

/**
 * The blocks as a core_seed line, the context fields decoded as the reference writes them
 * (higher_is_better a boolean, selected_idea an object when it holds one); null when the agent
 * has none of the blocks.
 */
export function blocksToSeed(blocks: Record<CoreBlock, string | null>): CoreSeedLine | null {
  if (CORE_BLOCKS.every((label) => blocks[label] === null)) return null;
  const context: Json = {};
  for (const field of CONTEXT_BLOCKS) {
    const v = blocks[field];
    if (v !== null) context[field] = decodeField(field, v);
  }
  return { kind: 'core_seed', persona: blocks.persona ?? '', human: blocks.human ?? '', context, seeded_at: 0 };
}

/**
 * The block values a core_seed line sets: persona and human when not empty, and each context
 * field svc keeps (a reference context's other keys, seeded_at say, have no block).
 */
export function seedToBlocks(seed: CoreSeedLine): Partial<Record<CoreBlock, string>> {
  const out: Partial<Record<CoreBlock, string>> = {};
  if (seed.persona !== '') out.persona = seed.persona;
  if (seed.human !== '') out.human = seed.human;
  for (const field of CONTEXT_BLOCKS) {
    const v = seed.context[field];
    if (v !== undefined && v !== null) out[field] = typeof v === 'string' ? v : JSON.stringify(v);
  }
  return out;
}

function decodeField(field: string, value: string): unknown {
  if (field === 'higher_is_better') return value === 'true' ? true : value === 'false' ? false : value;
  if (field !== 'selected_idea') return value;
  return parseLine(value) ?? value;
}
