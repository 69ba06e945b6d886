import type { Env } from '../core/config/env-vars.ts';
import { loadWorkflow } from '../core/config/workflow.ts';
import { realOrSelf } from '../core/paths.ts';
import { agentNameFor, MemoryClient } from './client.ts';

/**
 * Core memory block naming the checkpoint directory an agent belongs to. Agent names only carry
 * a hash of that path, so without it a pruner could not tell whose an agent is.
 */
export const CHECKPOINT_BLOCK = 'svc_checkpoint';

/**
 * The checkpoint workflow's memory server settings, as the memory skill reads them. A workflow
 * copy that no longer parses gives the defaults: its memory must still be reachable to back up
 * or delete.
 */
function membackendOf(checkpointDir: string, env: Env): { base_url: string; collection_prefix: string } {
  try {
    return loadWorkflow({ checkpointDir, env }).workflow.memory.membackend;
  } catch {
    return { base_url: '', collection_prefix: '' };
  }
}

/** The checkpoint's agent name: agentNameFor with the workflow's memory.membackend.collection_prefix. */
export function checkpointAgentName(checkpointDir: string, env: Env = process.env): string {
  return agentNameFor(checkpointDir, membackendOf(checkpointDir, env).collection_prefix || undefined);
}

/** The environment a checkpoint's memory client is made from: MEMBACKEND_BASE_URL, else its workflow's memory.membackend.base_url. */
export function checkpointMemoryEnv(checkpointDir: string, env: Env): Env {
  return { ...env, MEMBACKEND_BASE_URL: env.MEMBACKEND_BASE_URL || membackendOf(checkpointDir, env).base_url || undefined };
}

export function checkpointMemoryClient(checkpointDir: string, env: Env): MemoryClient {
  return MemoryClient.fromEnv(checkpointMemoryEnv(checkpointDir, env));
}

/** The checkpoint's agent id, or null when the backend has none for it. */
export function findCheckpointAgent(client: MemoryClient, checkpointDir: string): Promise<string | null> {
  return client.findAgent(checkpointAgentName(checkpointDir));
}

/** The checkpoint's agent, created when missing, marked with the checkpoint it belongs to. */
export async function ensureCheckpointAgent(client: MemoryClient, checkpointDir: string, name = checkpointAgentName(checkpointDir)): Promise<string> {
  const id = await client.ensureAgent(name);
  const path = realOrSelf(checkpointDir);
  if ((await client.getBlock(id, CHECKPOINT_BLOCK)) !== path) await client.setBlock(id, CHECKPOINT_BLOCK, path);
  return id;
}
