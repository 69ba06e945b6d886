import { join } from 'node:path';
import { writeJsonAtomic } from '../core/atomic.ts';
import type { Env } from '../core/config/env-vars.ts';
import { oneLine } from '../core/errors.ts';
import { NodeMemory } from '../memory/research/node-memory.ts';
import { buildVerifiedContext, type VerifiedContext } from '../memory/research/verified-context.ts';

export const VERIFIED_CONTEXT_FILE = 'verified_context.json';

export type PipelineContext = VerifiedContext & { note: string | null };

/**
 * verified_context.json: the memory's experiment results of every node of the tree, each checked
 * against disk now, for the paper stages to ground claims in. Memory that cannot be reached gives
 * an empty context with a note saying why: the paper then rests on the science data alone.
 */
export async function writeVerifiedContext(checkpointDir: string, nodeIds: string[], env: Env): Promise<PipelineContext> {
  let context: PipelineContext;
  try {
    const found = await buildVerifiedContext(NodeMemory.forCheckpoint(checkpointDir, env), nodeIds, 'paper', null);
    const none = found.verified.length === 0 && found.unverified.length === 0;
    context = { ...found, note: none ? 'memory holds no experiment results of these nodes' : null };
  } catch (err) {
    context = { purpose: 'paper', ancestor_ids: nodeIds, verified: [], unverified: [], limitations: [], note: `memory unavailable: ${oneLine(err)}` };
  }
  writeJsonAtomic(join(checkpointDir, VERIFIED_CONTEXT_FILE), context);
  return context;
}
