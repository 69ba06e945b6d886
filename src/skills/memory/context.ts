import { Type as T } from '@sinclair/typebox';
import { envValue } from '../../core/config/env-vars.ts';
import { InputError } from '../../core/errors.ts';
import { statOrNull } from '../../core/paths.ts';
import { AccessLog, type AccessResult, readEvent } from '../../memory/access-log.ts';
import { NodeMemory } from '../../memory/research/node-memory.ts';
import type { ToolContext } from '../../mcp/tool.ts';
import { readerNode } from './current-node.ts';

export const NodeIdParam = T.String({ minLength: 1, maxLength: 255, description: 'id of the node; for writes, the node being run (SVC_CURRENT_NODE_ID)' });
export const AncestorIdsParam = T.Array(T.String({ minLength: 1, maxLength: 255 }), {
  maxItems: 1000,
  description: "ids of the current node's ancestors, root first; only their entries are searched. Empty: nothing is returned",
});
export const LimitParam = T.Integer({ minimum: 1, maximum: 100, default: 5, description: 'most results to return' });

const memories = new Map<string, NodeMemory>();

/** The memory of the run's checkpoint (SVC_CHECKPOINT_DIR); one per checkpoint and backend settings. */
export function checkpointMemory(ctx: ToolContext): NodeMemory {
  const dir = checkpointDir(ctx);
  const settings = ['MEMBACKEND_BASE_URL', 'MEMBACKEND_API_KEY', 'SVC_MEMORY_LETTA_TIMEOUT_S', 'SVC_MEMORY_LETTA_OVERFETCH'].map((n) => ctx.env[n] ?? '');
  const key = JSON.stringify([dir, ...settings]);
  let memory = memories.get(key);
  if (!memory) {
    memory = NodeMemory.forCheckpoint(dir, ctx.env);
    memories.set(key, memory);
  }
  return memory;
}

const logs = new Map<string, AccessLog | null>();

/** The checkpoint's memory_access.jsonl, or null when off; kept per settings so a failing log warns once. */
export function accessLog(ctx: ToolContext): AccessLog | null {
  const key = JSON.stringify(['SVC_CHECKPOINT_DIR', 'SVC_MEMORY_ACCESS_LOG', 'SVC_MEMORY_ACCESS_LOG_MAX_MB'].map((n) => ctx.env[n] ?? ''));
  if (!logs.has(key)) logs.set(key, AccessLog.fromEnv(ctx.env));
  return logs.get(key) ?? null;
}

/** Logs a read of the ancestors' memory, made for the node the call is made for. */
export function logRead(ctx: ToolContext, query: string, ancestorIds: string[], limit: number | null, results: AccessResult[]): void {
  accessLog(ctx)?.append([readEvent({ node_id: readerNode(ctx), query, ancestor_ids: ancestorIds, limit, results })]);
}

function checkpointDir(ctx: ToolContext): string {
  const dir = envValue(ctx.env, 'SVC_CHECKPOINT_DIR');
  if (dir === null) throw new InputError('SVC_CHECKPOINT_DIR not set', 'memory belongs to a checkpoint: run the skill from a run');
  if (!statOrNull(dir)?.isDirectory()) throw new InputError(`SVC_CHECKPOINT_DIR ${dir} is not a directory`);
  return dir;
}
