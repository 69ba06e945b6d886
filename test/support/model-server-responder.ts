import { openaiAnswer } from './model-server-openai.ts';

/** What a responder is shown of a chat request: the prompt name of its first system line, and its messages. */
export type ChatRequest = { prompt: string | null; system: string; messages: { role: string; content: string }[]; body: Record<string, unknown> };

/** An answer text, or an HTTP error status. */
export type Answer = string | { status: number };

export type ResponderServer = { url: string; requests: ChatRequest[]; stop(): void };

/**
 * An OpenAI-compatible model server on 127.0.0.1 answering each chat request with what
 * `respond` returns for it: for tests whose requests come in no fixed order (parallel workers)
 * or without bound (a 1,000-node search). It dispatches on the template's first line,
 * `<!-- prompt: group/name -->`, given as `prompt`.
 */
export function startResponderServer(respond: (req: ChatRequest) => Answer | Promise<Answer>): ResponderServer {
  const requests: ChatRequest[] = [];
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === '/v1/models') return Response.json({ object: 'list', data: [{ id: 'qwen3:4b', object: 'model' }] });
      if (path !== '/v1/chat/completions' || req.method !== 'POST') return Response.json({ error: `no route ${req.method} ${path}` }, { status: 404 });
      const body = (await req.json()) as Record<string, unknown>;
      const messages = ((body.messages ?? []) as { role: string; content: unknown }[]).map((m) => ({ role: m.role, content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content) }));
      const system = messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n');
      const prompt = /<!-- prompt: ([\w/]+) -->/.exec(system)?.[1] ?? null;
      const r: ChatRequest = { prompt, system, messages, body };
      requests.push(r);
      const answer = await respond(r);
      if (typeof answer !== 'string') return Response.json({ error: { message: `scripted error ${answer.status}`, type: 'server_error' } }, { status: answer.status });
      return openaiAnswer({ text: answer, usage: { prompt: 10, completion: 5 } }, body);
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, requests, stop: () => void server.stop(true) };
}
