import type { Reply } from './model-server.ts';
import { pieces, sse } from './model-server-stream.ts';

/** OpenAI chat completions: one JSON answer, or SSE chunks when `stream: true`. */
export function openaiAnswer(reply: Reply, body: Record<string, unknown>): Response {
  const model = String(body.model ?? 'unknown');
  const id = `chatcmpl-${crypto.randomUUID().slice(0, 8)}`;
  const created = Math.floor(Date.now() / 1000);
  const calls = 'toolCalls' in reply ? reply.toolCalls.map((c, i) => ({ id: c.id ?? `call_${i + 1}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } })) : [];
  const text = 'text' in reply ? (reply.text ?? '') : '';
  const finish = calls.length ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: reply.usage.prompt, completion_tokens: reply.usage.completion, total_tokens: reply.usage.prompt + reply.usage.completion };
  if (body.stream !== true) {
    const message = { role: 'assistant', content: calls.length && !text ? null : text, ...(calls.length ? { tool_calls: calls } : {}) };
    return Response.json({ id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: finish }], usage });
  }
  const chunk = (delta: unknown, finishReason: string | null = null) => ({ data: { id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finishReason }] } });
  const events = [chunk({ role: 'assistant', content: '' })];
  for (const piece of pieces(text)) events.push(chunk({ content: piece }));
  calls.forEach((c, index) => {
    events.push(chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: '' } }] }));
    for (const piece of pieces(c.function.arguments)) events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  events.push(chunk({}, finish));
  const wantsUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
  return sse([...events, ...(wantsUsage ? [{ data: { id, object: 'chat.completion.chunk', created, model, choices: [], usage } }] : []), { data: '[DONE]' }]);
}

export function openaiError(status: number, message: string): unknown {
  const type = status === 429 ? 'rate_limit_exceeded' : status === 401 ? 'invalid_api_key' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return { error: { message, type, param: null, code: type } };
}

export function openaiModels(models: string[]): Response {
  return Response.json({ object: 'list', data: models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'library' })) });
}
