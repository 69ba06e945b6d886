import type { TSchema } from '@sinclair/typebox';
import type { Env } from '../../core/config/env-vars.ts';
import { InputError } from '../../core/errors.ts';
import { isMapping } from '../../core/values.ts';
import { httpApp } from '../../http/app.ts';
import { serveHttp } from '../../http/serve.ts';
import { checkArguments } from '../../mcp/arguments.ts';
import type { SkillDef, ToolDef } from '../../mcp/tool.ts';

/** Tools that start something are POSTed a JSON body; the others are read with GET and query arguments. */
const POST_TOOLS = new Set(['run_experiment']);

/**
 * The orchestrator's plain HTTP JSON transport (not MCP over HTTP): `GET /mcp/<tool>?arg=value`
 * and `POST /mcp/run_experiment` with a JSON object, answered with the tool's result as JSON, or
 * `{error}` with 400 (bad arguments), 404 (unknown run or tool), 405, 409, 413 or 500. The same
 * tool functions, with the same argument check, as over stdio.
 */
export function serveSkillHttp(skill: SkillDef, env: Env, opts: { host: string; port: number }) {
  const app = skillApp(skill, env);
  return serveHttp((req) => app.handle(req), { ...opts, name: `svc skill ${skill.name}`, portHint: 'pick another with --port or SVC_ORCHESTRATOR_PORT (0 picks a free one)' });
}

function skillApp(skill: SkillDef, env: Env) {
  // JSON only: a web page can post plain text or a form to any server without asking, and this one starts runs
  const app = httpApp({ name: `svc skill ${skill.name}`, jsonOnly: true, bodies: Object.fromEntries([...POST_TOOLS].map((t) => [`/mcp/${t}`, { optional: true }])) });
  for (const tool of skill.tools) {
    const call = (args: unknown, signal: AbortSignal) => runTool(tool, args, env, signal);
    if (POST_TOOLS.has(tool.name)) app.post(`/mcp/${tool.name}`, ({ body, request }) => call(body, request.signal));
    else app.get(`/mcp/${tool.name}`, ({ request }) => call(queryArguments(new URL(request.url).searchParams, tool.params), request.signal));
  }
  return app;
}

async function runTool(tool: ToolDef, raw: unknown, env: Env, signal: AbortSignal): Promise<Response> {
  const args = checkArguments(tool.params, tool.name, raw);
  return Response.json((await tool.run(args, { signal, env })) ?? null);
}

/** Query arguments, numbers and booleans read as the tool's schema declares them; the rest stay strings. */
function queryArguments(params: URLSearchParams, schema: TSchema): Record<string, unknown> {
  const props = isMapping(schema.properties) ? (schema.properties as Record<string, { type?: string }>) : {};
  const out: Record<string, unknown> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    if (values.length > 1) throw new InputError(`argument '${key}' is given ${values.length} times`, 'give it once');
    const v = values[0] ?? '';
    const type = props[key]?.type;
    if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(v)) out[key] = Number(v);
    else if (type === 'boolean' && (v === 'true' || v === 'false')) out[key] = v === 'true';
    else out[key] = v;
  }
  return out;
}
