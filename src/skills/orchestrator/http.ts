import type { TSchema } from '@sinclair/typebox';
import type { Env } from '../../core/config/env-vars.ts';
import { InputError, oneLine, SvcError, TooLargeError } from '../../core/errors.ts';
import { isMapping } from '../../core/values.ts';
import { checkArguments } from '../../mcp/arguments.ts';
import { errorResponse, json, MAX_JSON_BODY, statusOf } from '../../http/response.ts';
import { isLoopback, loopbackHosts } from '../../http/loopback.ts';
import { listen } from '../../http/listen.ts';
import type { SkillDef, ToolDef } from '../../mcp/tool.ts';

/** Tools that start something are POSTed a JSON body; the others are read with GET and query arguments. */
const POST_TOOLS = new Set(['run_experiment']);

/**
 * The orchestrator's plain HTTP JSON transport (not MCP over HTTP): `GET /mcp/<tool>?arg=value`
 * and `POST /mcp/run_experiment` with a JSON object, answered with the tool's result as JSON, or
 * `{error}` with 400 (bad arguments), 404 (unknown run or tool), 409, 413 or 500. The same tool
 * functions as over stdio.
 */
export function serveSkillHttp(skill: SkillDef, env: Env, opts: { host: string; port: number }) {
  const tools = new Map(skill.tools.map((t) => [t.name, t]));
  // set once the port is known; a loopback server answers only to loopback names, so a page whose
  // name was rebound to 127.0.0.1 cannot start runs (as the dashboard's gate does)
  let hosts: Set<string> | null = null;
  const fetch = (req: Request) => {
    if (hosts && !hosts.has((req.headers.get('host') ?? '').toLowerCase())) return errorResponse(421, 'this server answers only to 127.0.0.1, localhost and [::1]');
    return handle(req, tools, env);
  };
  const served = listen(
    { fetch, error: (err) => errorResponse(500, `internal error: ${err.message}`) },
    opts.host,
    opts.port,
    'pick another with --port or SVC_ORCHESTRATOR_PORT (0 picks a free one)',
  );
  if (isLoopback(opts.host)) hosts = loopbackHosts(served.server.port ?? opts.port);
  return served;
}

async function handle(req: Request, tools: ReadonlyMap<string, ToolDef>, env: Env): Promise<Response> {
  const url = new URL(req.url);
  const name = /^\/mcp\/([a-z_]+)$/.exec(url.pathname)?.[1];
  const tool = name === undefined ? undefined : tools.get(name);
  if (!name || !tool) return errorResponse(404, `no such endpoint: ${req.method} ${url.pathname} (tools: ${[...tools.keys()].map((t) => `${POST_TOOLS.has(t) ? 'POST' : 'GET'} /mcp/${t}`).join(', ')})`);
  const method = POST_TOOLS.has(name) ? 'POST' : 'GET';
  if (req.method !== method) return new Response(JSON.stringify({ error: `${name} takes ${method}, not ${req.method}` }), { status: 405, headers: { 'content-type': 'application/json; charset=utf-8', allow: method } });
  try {
    const raw = method === 'GET' ? queryArguments(url.searchParams, tool.params) : await jsonBody(req);
    const args = checkArguments(tool.params, name, raw);
    return json((await tool.run(args, { signal: req.signal, env })) ?? null);
  } catch (err) {
    const status = statusOf(err);
    if (status >= 500 && !(err instanceof SvcError)) console.error(`${name}: ${(err as Error)?.stack ?? err}`);
    return errorResponse(status, status >= 500 && !(err instanceof SvcError) ? `${name} failed: ${oneLine(err)}` : oneLine(err));
  }
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

/** The request's JSON object, read up to the body limit; an empty body is no arguments. */
async function jsonBody(req: Request): Promise<unknown> {
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (declared > MAX_JSON_BODY) throw new TooLargeError(`request body too large: the limit is ${MAX_JSON_BODY / 1024 / 1024} MB`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (req.body) {
    for await (const chunk of req.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > MAX_JSON_BODY) throw new TooLargeError(`request body too large: the limit is ${MAX_JSON_BODY / 1024 / 1024} MB`);
      chunks.push(chunk);
    }
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new InputError('malformed request body: expected a JSON object of arguments');
  }
}
