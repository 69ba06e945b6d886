import { ConflictError, SvcError } from '../../core/errors.ts';
import type { ToolContext } from '../tool.ts';

/**
 * The node a call is made for is SVC_CURRENT_NODE_ID of the call's environment (ToolContext.env),
 * read afresh on every call. One skill process serves every node of the run, in parallel, so the
 * id travels with each call instead of being set on the process between calls (which needs a lock
 * around every write and breaks when two nodes interleave). The run's tool pool sends it in the
 * MCP request's `_meta` under CURRENT_NODE_META; the skill server lays it over the process
 * environment for that call only (`callEnv`). It is no tool argument, so the model neither sees
 * nor sets it. A process started for one node may instead have it in its own environment.
 */
export const CURRENT_NODE_META = 'svc/current_node_id';

/** The environment of one call: the process's, with the node the request's `_meta` names. */
export function callEnv(env: ToolContext['env'], meta: Record<string, unknown> | undefined): ToolContext['env'] {
  const node = meta?.[CURRENT_NODE_META];
  return typeof node === 'string' && node !== '' ? { ...env, SVC_CURRENT_NODE_ID: node } : env;
}

/**
 * Copy-on-write by node: a write goes only into the scope of the node being run, so parallel
 * nodes never write into each other's scope and a node never changes its ancestors' entries.
 */
export function requireCurrentNode(ctx: ToolContext, nodeId: string): void {
  const current = ctx.env.SVC_CURRENT_NODE_ID;
  if (current === undefined || current === '') throw new SvcError('SVC_CURRENT_NODE_ID not set');
  if (current !== nodeId) throw new ConflictError('node_id does not match current node (CoW violation)');
}

/** The node a read is made for, as the access log records it ('' outside a node). */
export function readerNode(ctx: ToolContext): string {
  return ctx.env.SVC_CURRENT_NODE_ID ?? '';
}
