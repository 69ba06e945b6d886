import { ConflictError, SvcError } from '../../core/errors.ts';
import type { ToolContext } from '../../mcp/tool.ts';

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
