import { describe, expect, test } from 'bun:test';
import { requestKey } from '../../../src/llm/cassette.ts';
import type { ChatMessage, CompletionRequest } from '../../../src/llm/types.ts';
import type { ModelServer } from '../../support/model-server.ts';
import { client, freshEachTest, type Sandbox } from './helpers.ts';

let box: Sandbox;
let server: ModelServer;
freshEachTest((b, s) => {
  box = b;
  server = s;
});

/** Not a real picture: the providers pass the bytes on as they are, so any bytes show they arrive whole. */
const PICTURE = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 250, 251, 252]);
const BASE64 = Buffer.from(PICTURE).toString('base64');

const looking = (data: Uint8Array = PICTURE): ChatMessage[] => [
  { role: 'system', content: 'describe figures' },
  { role: 'user', content: [{ type: 'text', text: 'Figure 1:' }, { type: 'image', mediaType: 'image/png', data }] },
];

type Part = Record<string, unknown>;
const userParts = (s: ModelServer): Part[] => {
  const messages = (s.requests[0]?.body as { messages: { role: string; content: Part[] }[] }).messages;
  return messages.find((m) => m.role === 'user')?.content ?? [];
};

describe('a user message with a picture reaches a vision model in its protocol', () => {
  test('OpenAI chat completions: a text part, then an image_url with the bytes as a data URL', async () => {
    server.push({ text: 'a bar chart' });
    const c = client(box, { SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, VLM_MODEL: 'llava' });
    const answer = await c.complete({ role: 'vlm', messages: looking() });
    expect(answer).toMatchObject({ text: 'a bar chart', model: 'llava', backend: 'openai-compatible' });
    expect(userParts(server)).toEqual([
      { type: 'text', text: 'Figure 1:' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${BASE64}` } },
    ]);
  });

  test('Anthropic Messages: an image block with the base64 bytes', async () => {
    server.push({ text: 'a bar chart' });
    const c = client(box, { SVC_BACKEND: 'providerb', PROVIDERB_API_KEY: 'k', LLM_API_BASE: `${server.url}/v1`, VLM_MODEL: 'claude-sonnet-4-5' });
    await c.complete({ role: 'vlm', messages: looking() });
    expect(server.requests[0]?.path).toBe('/v1/messages');
    expect(userParts(server)).toEqual([
      { type: 'text', text: 'Figure 1:' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: BASE64 } },
    ]);
  });
});

describe('the cassette key of a request with a picture', () => {
  const req = (data: Uint8Array): CompletionRequest => ({ role: 'vlm', messages: looking(data) });

  test('names the picture by its digest: the same bytes give the same key, other bytes another', () => {
    expect(requestKey('gpt-4o', req(PICTURE))).toBe(requestKey('gpt-4o', req(PICTURE.slice())));
    expect(requestKey('gpt-4o', req(PICTURE))).not.toBe(requestKey('gpt-4o', req(PICTURE.slice(1))));
  });
});

describe('whether the vision model can be called, without calling it', () => {
  test('the built-in hosted vision model without its key: the reason names the key', () => {
    const c = client(box, { LOCALLLM_HOST: '127.0.0.1:1' });
    expect(c.unavailable('vlm')).toMatch(/^PROVIDERA_API_KEY is not set: providera needs it for the vlm model gpt-4o/);
    expect(server.requests).toEqual([]);
  });

  test('VLM_MODEL served by the configured backend, or the key given: available', () => {
    expect(client(box, { LOCALLLM_HOST: '127.0.0.1:1', VLM_MODEL: 'llava' }).unavailable('vlm')).toBeNull();
    expect(client(box, { LOCALLLM_HOST: '127.0.0.1:1', PROVIDERA_API_KEY: 'k' }).unavailable('vlm')).toBeNull();
  });
});
