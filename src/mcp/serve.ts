import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { version } from '../../package.json';
import { oneLine, SvcError } from '../core/errors.ts';
import { callContext } from './call-env.ts';
import type { SkillDef, ToolContext, ToolDef } from './tool.ts';
import { checkArguments } from './arguments.ts';
import { protocolProblem } from './protocol-problem.ts';
import { logFor } from '../core/log.ts';

/**
 * Serves one skill over MCP stdio until stdin closes. stdout carries protocol frames only:
 * anything else printed there would corrupt the stream, so console output is sent to stderr.
 */
export async function serveSkill(skill: SkillDef, env: Readonly<Record<string, string | undefined>> = process.env): Promise<void> {
  keepStdoutForFrames();
  const server = new Server({ name: skill.name, version }, { capabilities: { tools: {} } });
  const tools = new Map(skill.tools.map((t) => [t.name, t]));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: skill.tools.map(listing) }));
  const running = new Set<Promise<CallToolResult>>();
  server.setRequestHandler(CallToolRequestSchema, (req, extra) => {
    const call = callTool(tools, req.params.name, req.params.arguments, { signal: extra.signal, ...callContext(env, req.params._meta) });
    running.add(call);
    void call.finally(() => running.delete(call));
    return call;
  });
  // a line that is not a protocol message is dropped, and one over the transport's size limit ends
  // the session: either way the client hears nothing, so the reason goes to stderr
  server.onerror = (err) => logFor(skill.name).error(protocolProblem(err));
  const transport = new StdioServerTransport();
  const done = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    // the transport does not notice end of input by itself
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    // a client closing us with a signal gets the same orderly stop: running commands are stopped
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await server.connect(transport);
  await done;
  // closing aborts the calls still running; give them a moment to stop their processes
  await server.close().catch(() => {});
  await Promise.race([Promise.allSettled(running), Bun.sleep(STOP_GRACE_MS)]);
}

const STOP_GRACE_MS = 3000;

/**
 * The tool as MCP clients see it: TypeBox schemas are JSON Schema already. An argument with a
 * default is filled in by the server, so a model need not give it: it is not listed as required.
 */
export function listing(tool: ToolDef) {
  const inputSchema = JSON.parse(JSON.stringify(tool.params)) as { properties?: Record<string, { default?: unknown }>; required?: string[] };
  if (inputSchema.required) {
    inputSchema.required = inputSchema.required.filter((name) => inputSchema.properties?.[name]?.default === undefined);
    if (inputSchema.required.length === 0) delete inputSchema.required;
  }
  return { name: tool.name, description: tool.description, inputSchema };
}

export async function callTool(
  tools: ReadonlyMap<string, ToolDef>,
  name: string,
  raw: unknown,
  ctx: ToolContext,
): Promise<CallToolResult> {
  const tool = tools.get(name);
  if (!tool) return failure(`unknown tool '${name}' (tools: ${[...tools.keys()].join(', ')})`);
  try {
    const args = checkArguments(tool.params, name, raw);
    const result = await tool.run(args, ctx);
    return { content: [{ type: 'text', text: JSON.stringify(result ?? null) }] };
  } catch (err) {
    if (!(err instanceof SvcError)) logFor(name).error((err as Error)?.stack ?? err);
    return failure(err instanceof SvcError ? oneLine(err) : `${name} failed: ${oneLine(err)}`);
  }
}

function failure(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: message }) }] };
}

function keepStdoutForFrames(): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.warn = toStderr;
}
