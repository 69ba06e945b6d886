import { anthropicAnswer, anthropicError, anthropicModels } from './model-server-anthropic.ts';
import { ollamaEmbed, openaiEmbeddings } from './model-server-embeddings.ts';
import { ollamaAnswer, ollamaError, ollamaInfo } from './model-server-ollama.ts';
import { openaiAnswer, openaiError, openaiModels } from './model-server-openai.ts';

/** Token counts a scripted answer reports; defaults 10 and 5. */
export type ScriptUsage = { prompt?: number; completion?: number };

export type ScriptToolCall = { name: string; args: unknown; id?: string };

/** An answer in the protocol the request used. */
export type ReplyStep =
  | { text: string }
  | { toolCalls: ScriptToolCall[]; text?: string }
  /** an error status; retryAfter (seconds, or an HTTP date) and retryAfterMs set those headers; body replaces the protocol's error body */
  | { status: number; retryAfter?: number | string; retryAfterMs?: number; body?: unknown }
  /** this JSON as the whole 200 body */
  | { json: unknown }
  /** this text as a 200 application/json body (a malformed reply) */
  | { raw: string };

/**
 * One step of a script: an answer (waiting delayMs first), or `{delayMs}` alone, which waits and
 * then answers with the next step.
 */
export type Step = (ReplyStep & { usage?: ScriptUsage; delayMs?: number }) | { delayMs: number };

export type RecordedRequest = { method: string; path: string; headers: Record<string, string>; body: unknown; at: number };

export type ModelServer = {
  url: string;
  port: number;
  /** every request in arrival order; `at` is performance.now() on arrival */
  requests: RecordedRequest[];
  push(...steps: Step[]): void;
  /** error answers for the next embedding requests, in order, before the scripted vectors resume; a null answers its request */
  failEmbeddings(...errors: ({ status: number; retryAfter?: number } | null)[]): void;
  stop(): void;
};

export type ModelServerOptions = {
  models?: string[];
  /** answers every chat request while the script is empty (a pure function of the request body; a promise holds the answer back until it settles) */
  respond?: (body: Record<string, unknown>, protocol: Protocol) => Step | Promise<Step>;
  /** a fixed port (a server started again where a stopped one listened); a free one when absent */
  port?: number;
  /** the embedding models served (model-server-embeddings.ts); another model named is a 404 */
  embeddingModels?: string[];
};

/** The answer plus what a protocol needs to shape it. */
export type Reply = ReplyStep & { usage: Required<ScriptUsage> };
export type Protocol = 'openai' | 'anthropic' | 'ollama';

const CHAT_PATHS: Readonly<Record<string, Protocol>> = { '/v1/chat/completions': 'openai', '/v1/messages': 'anthropic', '/api/chat': 'ollama' };
const EMBED_PATHS: Readonly<Record<string, 'openai' | 'ollama'>> = { '/v1/embeddings': 'openai', '/api/embed': 'ollama' };

/**
 * A model server on 127.0.0.1 speaking the OpenAI chat completions, Anthropic Messages and
 * Ollama protocols, and OpenAI's and Ollama's embeddings (with the scripted embeddings model's
 * vectors), answering chat requests from a script in order, then from `opts.respond`
 * when given. An empty script without `respond` answers 500 with a message saying so, so a test
 * never hangs waiting for an answer.
 */
export function startModelServer(script: Step[] = [], opts: ModelServerOptions = {}): ModelServer {
  const steps = [...script];
  const requests: RecordedRequest[] = [];
  const models = opts.models ?? ['qwen3:4b'];
  const embeddingModels = opts.embeddingModels ?? ['scripted-embed'];
  const embedFailures: ({ status: number; retryAfter?: number } | null)[] = [];
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: opts.port ?? 0,
    async fetch(req) {
      const at = performance.now();
      const { pathname: path, searchParams } = new URL(req.url);
      const text = await req.text();
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        requests.push({ method: req.method, path, headers: Object.fromEntries(req.headers), body: text, at });
        return Response.json({ error: 'request body is not JSON' }, { status: 400 });
      }
      requests.push({ method: req.method, path, headers: Object.fromEntries(req.headers), body, at });
      if (req.method === 'POST' && EMBED_PATHS[path]) {
        const failure = embedFailures.shift();
        if (failure) return errorReply(EMBED_PATHS[path], failure, `scripted error ${failure.status}`);
        const record = body as Record<string, unknown>;
        return EMBED_PATHS[path] === 'openai' ? openaiEmbeddings(record, embeddingModels) : ollamaEmbed(record, embeddingModels);
      }
      const protocol = CHAT_PATHS[path];
      if (protocol && req.method === 'POST') return answer(protocol, body as Record<string, unknown>, steps, requests.length, opts.respond);
      if (path === '/v1/models') return req.headers.has('anthropic-version') ? anthropicModels(models, searchParams) : openaiModels(models);
      return ollamaInfo(req.method, path, body, models) ?? Response.json({ error: `no route ${req.method} ${path}` }, { status: 404 });
    },
  });
  const port = server.port as number;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    push: (...more) => steps.push(...more),
    failEmbeddings: (...errors) => embedFailures.push(...errors),
    stop: () => void server.stop(true),
  };
}

async function answer(protocol: Protocol, body: Record<string, unknown>, steps: Step[], n: number, respond: ModelServerOptions['respond']): Promise<Response> {
  let step = steps.shift();
  while (step && !isReply(step)) {
    await Bun.sleep(step.delayMs);
    step = steps.shift();
  }
  if (!step && respond) {
    step = await respond(body, protocol);
    if (!isReply(step)) return errorReply(protocol, { status: 500 }, `the model server's responder gave no answer for request ${n}`);
  }
  if (!step) return errorReply(protocol, { status: 500 }, `the model server's script is empty (request ${n})`);
  if (step.delayMs) await Bun.sleep(step.delayMs);
  const reply = { ...step, usage: { prompt: 10, completion: 5, ...step.usage } } as Reply;
  if ('status' in reply) return errorReply(protocol, reply, `scripted error ${reply.status}`);
  if ('json' in reply) return Response.json(reply.json);
  if ('raw' in reply) return new Response(reply.raw, { headers: { 'content-type': 'application/json' } });
  if (protocol === 'openai') return openaiAnswer(reply, body);
  if (protocol === 'anthropic') return anthropicAnswer(reply, body);
  return ollamaAnswer(reply, body);
}

function isReply(step: Step): step is ReplyStep & { usage?: ScriptUsage; delayMs?: number } {
  return ['text', 'toolCalls', 'status', 'json', 'raw'].some((k) => k in step);
}

function errorReply(protocol: Protocol, step: { status: number; retryAfter?: number | string; retryAfterMs?: number; body?: unknown }, message: string): Response {
  const headers: Record<string, string> = {};
  if (step.retryAfter !== undefined) headers['retry-after'] = String(step.retryAfter);
  if (step.retryAfterMs !== undefined) headers['retry-after-ms'] = String(step.retryAfterMs);
  const body = step.body ?? (protocol === 'openai' ? openaiError(step.status, message) : protocol === 'anthropic' ? anthropicError(step.status, message) : ollamaError(message));
  return Response.json(body, { status: step.status, headers });
}
