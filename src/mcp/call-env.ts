import type { Env } from '../core/config/env-vars.ts';

/**
 * The node a call is made for travels with the call, in the MCP request's `_meta` under this key:
 * one skill process serves every node of the run, in parallel, so the node cannot be a setting of
 * the process (that needs a lock around every write and breaks when two nodes interleave). It is
 * no tool argument, so the model neither sees nor sets it.
 */
export const CURRENT_NODE_META = 'svc/current_node_id';

/** The environment of one call: the process's, with the node the request's `_meta` names. */
export function callEnv(env: Env, meta: Record<string, unknown> | undefined): Env {
  const node = meta?.[CURRENT_NODE_META];
  return typeof node === 'string' && node !== '' ? { ...env, SVC_CURRENT_NODE_ID: node } : env;
}
