import { oneLine } from '../core/errors.ts';
import type { ToolCall } from '../llm/types.ts';
import { EXEC_TOOLS, hasOutput, type NodeTools } from './tools.ts';
import { headTail, TOOL_RESULT_MAX_CHARS } from './truncate.ts';

/** Trace lines stay readable in tree.json: arguments up to this, results up to half. */
export const TRACE_ARGS_MAX_CHARS = 4000;
const TRACE_RESULT_MAX_CHARS = 2000;
const CODE_ARTIFACT_MAX_CHARS = 16000;

export type CallDone = {
  /** what the model reads back (cut to TOOL_RESULT_MAX_CHARS) */
  content: string;
  trace: string[];
  /** an exec tool answered (not an error) */
  execRan: boolean;
  /** ... and its answer carried program output */
  execOutput: boolean;
  artifact: Record<string, unknown> | null;
  /** the command an exec tool ran, for the report's run_command */
  command: string | null;
};

/**
 * One tool call of the model, made for the node. Anything wrong with the call (an unknown tool,
 * arguments that are not an object, a tool error) comes back as an error the model reads and can
 * correct; nothing here throws.
 */
export async function runToolCall(call: ToolCall, tools: NodeTools, step: number): Promise<CallDone> {
  const argsText = typeof call.args === 'string' ? call.args : JSON.stringify(call.args ?? {});
  const trace = [`→ ${call.name}(${headTail(argsText, TRACE_ARGS_MAX_CHARS)})`];
  const fail = (error: string): CallDone => {
    trace.push(`  ← error: ${headTail(error, TRACE_RESULT_MAX_CHARS)}`);
    return { content: headTail(JSON.stringify({ error }), TOOL_RESULT_MAX_CHARS), trace, execRan: false, execOutput: false, artifact: null, command: null };
  };
  if (!tools.has(call.name)) return fail(`unknown tool '${call.name}': this node can call ${tools.infos.map((t) => t.name).join(', ')}`);
  const args = call.args;
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    return fail(`the arguments of ${call.name} are not a JSON object (got ${headTail(typeof args === 'string' ? args : JSON.stringify(args), 200)}); call it again with an object`);
  }
  let outcome: Awaited<ReturnType<NodeTools['call']>>;
  try {
    outcome = await tools.call(call.name, args as Record<string, unknown>);
  } catch (err) {
    // the pool answers {error} by contract; this only guards the node against a broken promise
    outcome = { error: `${call.name}: ${oneLine(err)}` };
  }
  if ('error' in outcome) return fail(outcome.error);
  const text = typeof outcome.result === 'string' ? outcome.result : JSON.stringify(outcome.result);
  trace.push(`  ← ${headTail(text, TRACE_RESULT_MAX_CHARS)}`);
  const isExec = EXEC_TOOLS.has(call.name);
  const a = args as Record<string, unknown>;
  return {
    content: headTail(text, TOOL_RESULT_MAX_CHARS),
    trace,
    execRan: isExec,
    execOutput: isExec && hasOutput(outcome.result),
    artifact: artifactOf(call.name, a, outcome.result, step),
    command: isExec ? commandOf(call.name, a) : null,
  };
}

function artifactOf(tool: string, args: Record<string, unknown>, result: unknown, step: number): Record<string, unknown> | null {
  if (tool === 'write_code' && typeof args.code === 'string') {
    return { type: 'code', tool, filename: args.filename ?? null, content: args.code.slice(0, CODE_ARTIFACT_MAX_CHARS), step };
  }
  if (EXEC_TOOLS.has(tool) && result !== null && typeof result === 'object') {
    const stdout = (result as Record<string, unknown>).stdout;
    if (typeof stdout === 'string' && stdout.trim() !== '') return { type: 'result', tool, stdout: headTail(stdout, TOOL_RESULT_MAX_CHARS), step };
  }
  return null;
}

export function commandOf(tool: string, args: Record<string, unknown>): string | null {
  if (tool === 'run_bash' && typeof args.command === 'string') return args.command;
  if (tool === 'run_code' && typeof args.filename === 'string') return `run_code ${args.filename}`;
  if (typeof args.command === 'string') return args.command;
  return null;
}
