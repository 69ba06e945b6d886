import type { Reply } from './model-server.ts';
import { pieces, sse } from './model-server-stream.ts';

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown };

/** Anthropic Messages: one JSON message, or the SSE event sequence when `stream: true`. */
export function anthropicAnswer(reply: Reply, body: Record<string, unknown>): Response {
  const model = String(body.model ?? 'unknown');
  const id = `msg_${crypto.randomUUID().slice(0, 8)}`;
  const text = 'text' in reply ? (reply.text ?? '') : '';
  const blocks: Block[] = [
    ...(text ? [{ type: 'text' as const, text }] : []),
    ...('toolCalls' in reply ? reply.toolCalls.map((c, i) => ({ type: 'tool_use' as const, id: c.id ?? `toolu_${i + 1}`, name: c.name, input: c.args })) : []),
  ];
  const stop = blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
  const usage = { input_tokens: reply.usage.prompt, output_tokens: reply.usage.completion };
  if (body.stream !== true) return Response.json({ id, type: 'message', role: 'assistant', model, content: blocks, stop_reason: stop, stop_sequence: null, usage });
  const events: { event: string; data: unknown }[] = [
    { event: 'message_start', data: { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.input_tokens, output_tokens: 1 } } } },
  ];
  blocks.forEach((b, index) => {
    const start = b.type === 'text' ? { type: 'text', text: '' } : { type: 'tool_use', id: b.id, name: b.name, input: {} };
    events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: start } });
    const deltas = b.type === 'text' ? pieces(b.text).map((t) => ({ type: 'text_delta', text: t })) : pieces(JSON.stringify(b.input)).map((j) => ({ type: 'input_json_delta', partial_json: j }));
    for (const delta of deltas) events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta } });
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push({ event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } } });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return sse(events);
}

export function anthropicError(status: number, message: string): unknown {
  const type = status === 429 ? 'rate_limit_error' : status === 529 ? 'overloaded_error' : status === 401 ? 'authentication_error' : status === 403 ? 'permission_error' : status >= 500 ? 'api_error' : 'invalid_request_error';
  return { type: 'error', error: { type, message } };
}

export function anthropicModels(models: string[], query: URLSearchParams = new URLSearchParams()): Response {
  // paged like the real API: `limit` ids (20 unless asked), after `after_id`, `has_more` when there are more
  const limit = Number(query.get('limit') ?? 20);
  const after = query.get('after_id');
  const from = after === null ? 0 : models.indexOf(after) + 1;
  const page = models.slice(from, from + limit);
  const data = page.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' }));
  return Response.json({ data, has_more: from + limit < models.length, first_id: page[0] ?? null, last_id: page.at(-1) ?? null });
}
