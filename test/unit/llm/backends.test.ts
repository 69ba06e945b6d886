import { describe, expect, test } from 'bun:test';
import type { ChatMessage, ToolSpec } from '../../../src/llm/types.ts';
import type { ModelServer } from '../../support/model-server.ts';
import { client, freshEachTest, type Sandbox } from './helpers.ts';

let box: Sandbox;
let server: ModelServer;
freshEachTest((b, s) => {
  box = b;
  server = s;
});

const hostOf = (s: ModelServer) => s.url.replace('http://', '');
const ADD: ToolSpec = { name: 'add', description: 'add two numbers', parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } };

/** Each backend with the environment that points it at the scripted server, and the path it posts to. */
const BACKENDS = [
  { backend: 'localllm', env: (s: ModelServer) => ({ LOCALLLM_HOST: hostOf(s), SVC_MODEL: 'qwen3:4b' }), path: '/v1/chat/completions' },
  { backend: 'providera', env: (s: ModelServer) => ({ SVC_BACKEND: 'providera', PROVIDERA_API_KEY: 'sk-a', LLM_API_BASE: `${s.url}/v1`, SVC_MODEL: 'gpt-4o-mini' }), path: '/v1/chat/completions' },
  { backend: 'providerb', env: (s: ModelServer) => ({ SVC_BACKEND: 'anthropic', PROVIDERB_API_KEY: 'sk-b', LLM_API_BASE: `${s.url}/v1`, SVC_MODEL: 'claude-sonnet-4-5' }), path: '/v1/messages' },
  { backend: 'openai-compatible', env: (s: ModelServer) => ({ SVC_BACKEND: 'vllm', LLM_API_BASE: `${s.url}/v1`, LLM_API_KEY: 'k-c', SVC_MODEL: 'meta-llama/Llama-3.1-8B-Instruct' }), path: '/v1/chat/completions' },
] as const;

describe.each(BACKENDS)('$backend against the scripted server', ({ backend, env, path }) => {
  test('text answer with usage, model and backend', async () => {
    server.push({ text: 'hello there', usage: { prompt: 42, completion: 7 } });
    const e = env(server);
    const c = await client(box, e).complete({ role: 'run', messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }], temperature: 0.2 });
    expect(c).toMatchObject({ text: 'hello there', toolCalls: [], usage: { promptTokens: 42, completionTokens: 7, totalTokens: 49 }, finishReason: 'stop', model: e.SVC_MODEL, backend });
    expect(server.requests.map((r) => r.path)).toEqual([path]);
    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body.model).toBe(e.SVC_MODEL);
    expect(JSON.stringify(body)).toContain('be brief');
  });

  test('tool calls out, tool results back in', async () => {
    server.push({ toolCalls: [{ name: 'add', args: { a: 1, b: 2 }, id: 'call_x' }] }, { text: 'it is 3' });
    const c = client(box, env(server));
    const first = await c.complete({ role: 'bfts', messages: [{ role: 'user', content: 'add 1 and 2' }], tools: [ADD], toolChoice: 'required' });
    expect(first.toolCalls).toEqual([{ id: 'call_x', name: 'add', args: { a: 1, b: 2 } }]);
    expect(first.finishReason).toBe('tool-calls');
    const history: ChatMessage[] = [
      { role: 'user', content: 'add 1 and 2' },
      { role: 'assistant', content: '', toolCalls: first.toolCalls },
      { role: 'tool', toolCallId: 'call_x', name: 'add', content: '3' },
    ];
    const second = await c.complete({ role: 'bfts', messages: history, tools: [ADD] });
    expect(second.text).toBe('it is 3');
    const [sent, followUp] = server.requests.map((r) => JSON.stringify(r.body));
    expect(sent).toContain('"add"');
    expect(sent).toContain('add two numbers');
    // the tool result travels with the id the model gave its call
    expect(followUp).toContain('call_x');
    expect(followUp).toMatch(/"3"/);
  });
});

test('hosted backends send their key the way their API expects', async () => {
  server.push({ text: 'a' }, { text: 'b' }, { text: 'c' });
  await client(box, BACKENDS[1].env(server)).complete({ role: 'run', messages: [{ role: 'user', content: 'x' }] });
  await client(box, BACKENDS[2].env(server)).complete({ role: 'run', messages: [{ role: 'user', content: 'x' }] });
  await client(box, BACKENDS[3].env(server)).complete({ role: 'run', messages: [{ role: 'user', content: 'x' }] });
  const [a, b, c] = server.requests.map((r) => r.headers);
  expect(a?.authorization).toBe('Bearer sk-a');
  expect(b?.['x-api-key']).toBe('sk-b');
  expect(b?.['anthropic-version']).toBeDefined();
  expect(c?.authorization).toBe('Bearer k-c');
});

test('a model id prefixed with a backend goes to that backend', async () => {
  server.push({ text: 'from b' });
  const c = client(box, { SVC_BACKEND: 'providerb', PROVIDERB_API_KEY: 'k', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL_PAPER: 'providerb/claude-haiku-4-5' });
  const answer = await c.complete({ role: 'paper', messages: [{ role: 'user', content: 'x' }] });
  expect(answer).toMatchObject({ text: 'from b', model: 'claude-haiku-4-5', backend: 'providerb' });
  expect((server.requests[0]?.body as { model: string }).model).toBe('claude-haiku-4-5');
});

test('tool-call arguments that are not JSON reach the caller as their text, so the agent can say what is wrong', async () => {
  const call = { id: 'c1', type: 'function', function: { name: 'add', arguments: '{"a": 1,' } };
  server.push({ json: { id: 'x', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [call] }, finish_reason: 'tool_calls' }] } });
  const c = await client(box, { LOCALLLM_HOST: hostOf(server) }).complete({ role: 'bfts', messages: [{ role: 'user', content: 'x' }], tools: [ADD] });
  expect(c.toolCalls).toEqual([{ id: 'c1', name: 'add', args: '{"a": 1,' }]);
  // a reply without usage counts zero tokens
  expect(c.usage).toEqual({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });
});
