import { CORE_BLOCKS, readCoreBlocks, seedToBlocks } from './backup-blocks.ts';
import type { CoreSeedLine } from './backup-format.ts';
import type { MemoryClient } from './client.ts';

/** What became of a backup's core_seed line: nothing in it, at least one block written, or all kept as stored. */
export type SeedOutcome = 'none' | 'restored' | 'kept';

/**
 * Restore the core memory blocks under a conflict mode. A block conflicts when the agent already
 * has a non-empty value for it: overwrite replaces it; skip and merge keep it (merge so gives the
 * union of both contexts, field by field, the stored value winning).
 */
export async function applyCoreSeed(client: MemoryClient, agentId: string, seed: CoreSeedLine, mode: 'skip' | 'overwrite' | 'merge'): Promise<SeedOutcome> {
  const stored = await readCoreBlocks(client, agentId);
  const wanted = seedToBlocks(seed);
  let written = false;
  let kept = false;
  for (const label of CORE_BLOCKS) {
    const value = wanted[label];
    if (value === undefined) continue;
    const current = stored[label] ?? '';
    if (value === current || (current !== '' && mode !== 'overwrite')) {
      kept = true;
      continue;
    }
    await client.setBlock(agentId, label, value);
    written = true;
  }
  return written ? 'restored' : kept ? 'kept' : 'none';
}
