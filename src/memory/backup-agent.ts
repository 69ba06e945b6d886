import { realOrSelf } from '../core/paths.ts';
import { agentNameFor, type MemoryClient } from './client.ts';

/**
 * Core memory block naming the checkpoint directory an agent belongs to. Agent names only carry
 * a hash of that path, so without it a pruner could not tell whose an agent is.
 */
export const CHECKPOINT_BLOCK = 'svc_checkpoint';

/** The checkpoint's agent id, or null when the backend has none for it. */
export function findCheckpointAgent(client: MemoryClient, checkpointDir: string): Promise<string | null> {
  return client.findAgent(agentNameFor(checkpointDir));
}

/** The checkpoint's agent, created when missing, marked with the checkpoint it belongs to. */
export async function ensureCheckpointAgent(client: MemoryClient, checkpointDir: string): Promise<string> {
  const id = await client.ensureAgent(agentNameFor(checkpointDir));
  const path = realOrSelf(checkpointDir);
  if ((await client.getBlock(id, CHECKPOINT_BLOCK)) !== path) await client.setBlock(id, CHECKPOINT_BLOCK, path);
  return id;
}
