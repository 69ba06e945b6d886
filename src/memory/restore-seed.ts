import { CORE_BLOCKS, type CoreSeedLine, parseContextBlock } from './backup-format.ts';
import type { MemoryClient } from './client.ts';

/** What became of a backup's core_seed line: nothing in it, at least one block written, or all kept as stored. */
export type SeedOutcome = 'none' | 'restored' | 'kept';

/**
 * Restore the core memory blocks under a conflict mode. A block conflicts when the agent already
 * has a non-empty value for it: skip keeps it, overwrite replaces it, merge keeps persona and
 * human and unions the context objects (the stored value wins for a key both have).
 */
export async function applyCoreSeed(client: MemoryClient, agentId: string, seed: CoreSeedLine, mode: 'skip' | 'overwrite' | 'merge'): Promise<SeedOutcome> {
  const [persona, human, context] = await Promise.all(CORE_BLOCKS.map((label) => client.getBlock(agentId, label)));
  const stored = { persona: persona ?? '', human: human ?? '', context: context ?? '' };
  const wanted = { persona: seed.persona, human: seed.human, context: Object.keys(seed.context).length > 0 ? JSON.stringify(seed.context) : '' };
  if (mode === 'merge' && stored.context !== '' && wanted.context !== '') wanted.context = JSON.stringify({ ...seed.context, ...parseContextBlock(stored.context) });
  let written = false;
  let kept = false;
  for (const label of CORE_BLOCKS) {
    const value = wanted[label];
    if (value === '') continue;
    // merge replaces only the context, and only with the union computed above
    const keep = value === stored[label] || (stored[label] !== '' && (mode === 'skip' || (mode === 'merge' && label !== 'context')));
    if (keep) {
      kept = true;
      continue;
    }
    await client.setBlock(agentId, label, value);
    written = true;
  }
  return written ? 'restored' : kept ? 'kept' : 'none';
}
