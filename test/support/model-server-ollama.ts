import type { Reply } from './model-server.ts';
import { pieces } from './model-server-stream.ts';

const SIZE = 2_497_293_931;

function details(name: string) {
  const family = name.split(/[:.\d]/)[0] || 'unknown';
  return { parent_model: '', format: 'gguf', family, families: [family], parameter_size: '4.0B', quantization_level: 'Q4_K_M' };
}

function digest(name: string): string {
  return new Bun.CryptoHasher('sha256').update(name).digest('hex');
}

/** Ollama's native chat: NDJSON chunks unless `stream: false` (Ollama streams by default). */
export function ollamaAnswer(reply: Reply, body: Record<string, unknown>): Response {
  const model = String(body.model ?? 'unknown');
  const createdAt = new Date().toISOString();
  const text = 'text' in reply ? (reply.text ?? '') : '';
  const calls = 'toolCalls' in reply ? reply.toolCalls.map((c) => ({ function: { name: c.name, arguments: c.args } })) : [];
  const final = {
    model,
    created_at: createdAt,
    done: true,
    done_reason: 'stop',
    total_duration: 1_000_000,
    load_duration: 100_000,
    prompt_eval_count: reply.usage.prompt,
    prompt_eval_duration: 200_000,
    eval_count: reply.usage.completion,
    eval_duration: 700_000,
  };
  const message = (content: string, withCalls: boolean) => ({ role: 'assistant', content, ...(withCalls && calls.length ? { tool_calls: calls } : {}) });
  if (body.stream === false) return Response.json({ ...final, message: message(text, true) });
  const lines: Record<string, unknown>[] = pieces(text).map((t) => ({ model, created_at: createdAt, message: message(t, false), done: false }));
  if (calls.length) lines.push({ model, created_at: createdAt, message: message('', true), done: false });
  lines.push({ ...final, message: message('', false) });
  return new Response(lines.map((l) => `${JSON.stringify(l)}\n`).join(''), { headers: { 'content-type': 'application/x-ndjson' } });
}

export function ollamaError(message: string): unknown {
  return { error: message };
}

/** The daemon's model-information endpoints; null for any other path. */
export function ollamaInfo(method: string, path: string, body: unknown, models: string[]): Response | null {
  const entry = (name: string) => ({ name, model: name, modified_at: '2025-01-01T00:00:00Z', size: SIZE, digest: digest(name), details: details(name) });
  if (method === 'GET' && path === '/api/version') return Response.json({ version: '0.12.0' });
  if (method === 'GET' && path === '/api/tags') return Response.json({ models: models.map(entry) });
  if (method === 'GET' && path === '/api/ps') {
    const loaded = models.slice(0, 1).map((n) => ({ ...entry(n), expires_at: '2099-01-01T00:00:00Z', size_vram: SIZE, context_length: 4096 }));
    return Response.json({ models: loaded });
  }
  if (method === 'POST' && path === '/api/show') {
    const b = (body ?? {}) as { model?: string; name?: string };
    const name = b.model ?? b.name ?? '';
    if (!models.includes(name)) return Response.json({ error: `model '${name}' not found` }, { status: 404 });
    const d = details(name);
    return Response.json({
      license: '',
      modelfile: `FROM ${name}\n`,
      parameters: 'temperature 0.6',
      template: '{{ .Prompt }}',
      details: d,
      model_info: { 'general.architecture': d.family, 'general.parameter_count': 4_000_000_000, [`${d.family}.context_length`]: 40_960 },
      capabilities: ['completion', 'tools'],
      modified_at: '2025-01-01T00:00:00Z',
    });
  }
  return null;
}
