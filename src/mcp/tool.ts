import { type Static, type TObject, type TProperties, type TSchema, Type as T } from '@sinclair/typebox';
import type { Phase } from '../schema/workflow.ts';
import type { NodeExec } from '../sandbox/node-command.ts';

/** What a tool implementation gets besides its arguments. */
export type ToolContext = {
  /** aborted when the caller gives up (timeout, cancellation) or the server stops */
  signal: AbortSignal;
  /** the skill process's environment (SVC_CHECKPOINT_DIR, SVC_WORK_DIR, SVC_CURRENT_NODE_ID, ...) */
  env: Readonly<Record<string, string | undefined>>;
  /** how a node's commands run (its container), when the call is made for a node */
  exec?: NodeExec;
  /** variables the commands a tool runs get as they are, credentials included: the ones their caller was given for them (an agent's env file, HF_TOKEN) */
  grantedEnv?: Readonly<Record<string, string>>;
};

/**
 * One tool: its name, what it does, its parameters as a TypeBox schema and its implementation,
 * defined together. The schema is what MCP clients see and what arguments are checked against
 * before `run` is called, so `run` receives well-typed arguments with defaults filled in.
 * `run` returns a JSON value (the `{result}`), or throws: an SvcError's one-line message becomes
 * the `{error}`.
 */
export type ToolDef<P extends TSchema = TSchema> = {
  name: string;
  description: string;
  params: P;
  /** seconds a client waits before giving up, when it has no reason to wait longer */
  timeoutS?: number;
  run: (args: Static<P>, ctx: ToolContext) => unknown | Promise<unknown>;
};

export function defineTool<P extends TSchema>(def: ToolDef<P>): ToolDef<P> {
  return def;
}

/** A tool's parameters: an object of these properties and no others. */
export function toolParams<P extends TProperties>(properties: P): TObject<P> {
  return T.Object(properties, { additionalProperties: false });
}

/** A skill: one MCP server of related tools. */
export type SkillDef = {
  name: string;
  description: string;
  /** phases the bundled workflow gives it */
  phases: Phase[];
  /** variables the skill reads, shown by the dashboard's skill page */
  env: string[];
  /** true when some tool calls a language model */
  usesModel: boolean;
  tools: ToolDef<any>[];
};
