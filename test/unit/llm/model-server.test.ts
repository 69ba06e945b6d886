import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { jsonSchema, streamText, tool } from 'ai';
import { type ModelServer, startModelServer } from '../../support/model-server.ts';

// The scripted server's streaming and information endpoints, checked with the real clients that read them.

let server: ModelServer;
beforeEach(() => {
  server = startModelServer([], { models: ['qwen3:4b', 'llama3.2:1b'] });
});
afterEach(() => server.stop());

const tools = { add: tool({ description: 'add', inputSchema: jsonSchema({ type: 'object', properties: { a: { type: 'number' } } }) }) };

async function streamed(model: Parameters<typeof streamText>[0]['model']) {
  const result = streamText({ model, prompt: 'hi', tools, maxRetries: 0 });
  let text = '';
  for await (const part of result.textStream) text += part;
  return { text, toolCalls: (await result.toolCalls).map((c) => [c.toolName, c.input]), usage: await result.usage, finish: await result.finishReason };
}

describe('streaming through the real clients', () => {
  test('OpenAI chat completions SSE: text, tool calls and the usage chunk', async () => {
    server.push({ text: 'streamed words here', usage: { prompt: 12, completion: 4 } }, { toolCalls: [{ name: 'add', args: { a: 2 } }] });
    const model = createOpenAICompatible({ name: 'x', baseURL: `${server.url}/v1`, includeUsage: true })('qwen3:4b');
    const first = await streamed(model);
    expect(first).toMatchObject({ text: 'streamed words here', finish: 'stop', usage: { inputTokens: 12, outputTokens: 4 } });
    expect((server.requests[0]?.body as { stream: boolean }).stream).toBe(true);
    expect(await streamed(model)).toMatchObject({ toolCalls: [['add', { a: 2 }]], finish: 'tool-calls' });
  });

  test('Anthropic Messages SSE: text, tool_use and usage', async () => {
    server.push({ text: 'from claude', usage: { prompt: 9, completion: 3 } }, { toolCalls: [{ name: 'add', args: { a: 5 } }], text: 'calling' });
    const model = createAnthropic({ apiKey: 'k', baseURL: `${server.url}/v1` })('claude-sonnet-4-5');
    expect(await streamed(model)).toMatchObject({ text: 'from claude', finish: 'stop', usage: { inputTokens: 9, outputTokens: 3 } });
    expect(await streamed(model)).toMatchObject({ text: 'calling', toolCalls: [['add', { a: 5 }]], finish: 'tool-calls' });
  });
});

describe('the local daemon protocol', () => {
  const post = (path: string, body: unknown) => fetch(`${server.url}${path}`, { method: 'POST', body: JSON.stringify(body) });

  test('native chat streams NDJSON by default and answers once with stream false', async () => {
    server.push({ text: 'abcdef', usage: { prompt: 7, completion: 2 } }, { toolCalls: [{ name: 'add', args: { a: 1 } }] });
    const lines = (await (await post('/api/chat', { model: 'qwen3:4b', messages: [] })).text()).trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.message.content).join('')).toBe('abcdef');
    expect(lines.at(-1)).toMatchObject({ done: true, done_reason: 'stop', prompt_eval_count: 7, eval_count: 2 });
    const once = await (await post('/api/chat', { model: 'qwen3:4b', messages: [], stream: false })).json();
    expect(once).toMatchObject({ done: true, message: { role: 'assistant', tool_calls: [{ function: { name: 'add', arguments: { a: 1 } } }] } });
  });

  test('model list, details, loaded models and version', async () => {
    const tags = (await (await fetch(`${server.url}/api/tags`)).json()) as { models: { name: string }[] };
    expect(tags.models.map((m) => m.name)).toEqual(['qwen3:4b', 'llama3.2:1b']);
    expect(tags.models[0]).toMatchObject({ model: 'qwen3:4b', size: expect.any(Number), digest: expect.stringMatching(/^[0-9a-f]{64}$/), details: { family: 'qwen', parameter_size: '4.0B' } });
    expect(await (await post('/api/show', { model: 'qwen3:4b' })).json()).toMatchObject({ capabilities: ['completion', 'tools'], details: { format: 'gguf' } });
    const missing = await post('/api/show', { model: 'nope' });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "model 'nope' not found" });
    const ps = (await (await fetch(`${server.url}/api/ps`)).json()) as { models: { name: string }[] };
    expect(ps.models.map((m) => m.name)).toEqual(['qwen3:4b']);
    expect(await (await fetch(`${server.url}/api/version`)).json()).toEqual({ version: expect.any(String) });
    const v1 = await (await fetch(`${server.url}/v1/models`)).json();
    expect(v1).toMatchObject({ object: 'list', data: [{ id: 'qwen3:4b', object: 'model' }, { id: 'llama3.2:1b' }] });
  });
});

describe('script edge cases', () => {
  test('an empty script answers 500 saying so, in the protocol of the request', async () => {
    const r = await fetch(`${server.url}/v1/messages`, { method: 'POST', body: '{}' });
    expect(r.status).toBe(500);
    expect(await r.json()).toEqual({ type: 'error', error: { type: 'api_error', message: "the model server's script is empty (request 1)" } });
  });

  test('a lone delay step waits, then the next step answers; requests are recorded with their bodies', async () => {
    server.push({ delayMs: 50 }, { json: { custom: true } });
    const r = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'm' }), headers: { 'x-test': '1' } });
    expect(await r.json()).toEqual({ custom: true });
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions', body: { model: 'm' }, headers: { 'x-test': '1' } });
  });

  test('a body that is not JSON is a 400', async () => {
    const r = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: '{oops' });
    expect(r.status).toBe(400);
  });
});
