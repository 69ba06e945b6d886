import type { Env } from '../core/config/env-vars.ts';
import { type NodeExec, parseNodeExec } from '../sandbox/node-command.ts';

/**
 * The node a call is made for travels with the call, in the MCP request's `_meta` under this key:
 * one skill process serves every node of the run, in parallel, so the node cannot be a setting of
 * the process (that needs a lock around every write and breaks when two nodes interleave). It is
 * no tool argument, so the model neither sees nor sets it.
 */
export const CURRENT_NODE_META = 'svc/current_node_id';

/** How the node's commands run (in a container or not) travels the same way, under this key. */
export const NODE_EXEC_META = 'svc/node_exec';

/** What one call works with: the process's environment with the node the request's `_meta` names, and how its commands run. */
export function callContext(env: Env, meta: Record<string, unknown> | undefined): { env: Env; exec?: NodeExec } {
  const node = meta?.[CURRENT_NODE_META];
  const exec = parseNodeExec(meta?.[NODE_EXEC_META]);
  return { env: typeof node === 'string' && node !== '' ? { ...env, SVC_CURRENT_NODE_ID: node } : env, ...(exec ? { exec } : {}) };
}

/** The `_meta` of a call made for a node. */
export function callMeta(nodeId: string | undefined, exec: NodeExec | undefined): Record<string, unknown> | undefined {
  if (!nodeId && !exec) return undefined;
  return { ...(nodeId ? { [CURRENT_NODE_META]: nodeId } : {}), ...(exec ? { [NODE_EXEC_META]: exec } : {}) };
}
