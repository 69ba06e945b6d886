import { describe, expect, test } from 'bun:test';
import { InputError, SvcError, TooLargeError, UnavailableError } from '../../../src/core/errors.ts';
import { MAX_ANSWER_BYTES } from '../../../src/llm/providers.ts';
import type { ModelServer } from '../../support/model-server.ts';
import { client, closedPort, freshEachTest, rejection, type Sandbox } from './helpers.ts';

let box: Sandbox;
let server: ModelServer;
freshEachTest((b, s) => {
  box = b;
  server = s;
});

const ASK = { role: 'run' as const, messages: [{ role: 'user' as const, content: 'hi' }] };
const local = (s: ModelServer, extra: Record<string, string> = {}) => ({ LOCALLLM_HOST: s.url.replace('http://', ''), ...extra });
/** Milliseconds between the arrival of request i and request i+1. */
const gap = (s: ModelServer, i: number) => (s.requests[i + 1]?.at ?? Number.NaN) - (s.requests[i]?.at ?? Number.NaN);

describe('retries', () => {
  test('429 with Retry-After in seconds: the retry waits that long', async () => {
    server.push({ status: 429, retryAfter: 1 }, { text: 'ok' });
    const c = await client(box, local(server)).complete(ASK);
    expect(c.text).toBe('ok');
    expect(server.requests).toHaveLength(2);
    expect(gap(server, 0)).toBeGreaterThanOrEqual(1000);
  });

  test('retry-after-ms wins over Retry-After', async () => {
    server.push({ status: 429, retryAfterMs: 300, retryAfter: 30 }, { text: 'ok' });
    await client(box, local(server)).complete(ASK);
    expect(server.requests).toHaveLength(2);
    expect(gap(server, 0)).toBeGreaterThanOrEqual(300);
    expect(gap(server, 0)).toBeLessThan(30_000);
  });

  test('Retry-After as an HTTP date', async () => {
    const at = new Date(Date.now() + 2000);
    server.push({ status: 503, retryAfter: at.toUTCString() }, { text: 'ok' });
    await client(box, local(server)).complete(ASK);
    expect(server.requests).toHaveLength(2);
    // the date has whole-second precision: the wait reaches its second
    expect(performance.timeOrigin + (server.requests[1]?.at ?? 0)).toBeGreaterThanOrEqual(Math.floor(at.getTime() / 1000) * 1000);
  });

  test('5xx without Retry-After is retried after a backoff, then succeeds', async () => {
    server.push({ status: 500 }, { status: 502 }, { text: 'finally', usage: { prompt: 3, completion: 2 } });
    const c = await client(box, local(server)).complete(ASK);
    expect(c).toMatchObject({ text: 'finally', usage: { totalTokens: 5 } });
    expect(server.requests).toHaveLength(3);
    // backoff: at least half of 500 ms, then at least half of 1000 ms
    expect(gap(server, 0)).toBeGreaterThanOrEqual(250);
    expect(gap(server, 1)).toBeGreaterThanOrEqual(500);
  });

  test('retries exhausted: one line naming the status and the attempts', async () => {
    for (let i = 0; i < 5; i++) server.push({ status: 503, retryAfter: 0 });
    const err = await rejection(client(box, local(server, { SVC_LLM_MAX_RETRIES: '2' })).complete(ASK));
    expect(err).toBeInstanceOf(UnavailableError);
    expect(err.message).toBe('localllm answered HTTP 503 3 times to the run request to qwen3:4b: scripted error 503');
    expect((err as SvcError).hint).toContain('SVC_LLM_MAX_RETRIES');
    expect(server.requests).toHaveLength(3);
  });

  test('SVC_LLM_MAX_RETRIES=0 makes one attempt', async () => {
    server.push({ status: 429, retryAfter: 0 }, { text: 'never' });
    const err = await rejection(client(box, local(server, { SVC_LLM_MAX_RETRIES: '0' })).complete(ASK));
    expect(err.message).toStartWith('localllm answered HTTP 429 to the run request');
    expect(server.requests).toHaveLength(1);
  });

  test('a wait that would pass the call timeout is not started', async () => {
    server.push({ status: 429, retryAfter: 5 }, { text: 'too late' });
    const err = await rejection(client(box, local(server, { SVC_LLM_TIMEOUT_S: '2' })).complete(ASK));
    expect(err.message).toContain('HTTP 429');
    expect(server.requests).toHaveLength(1);
  });

  test('a connection reset is retried', async () => {
    const cut = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data: (s) => void s.terminate() } });
    try {
      const err = await rejection(client(box, { LOCALLLM_HOST: `127.0.0.1:${cut.port}`, SVC_LLM_MAX_RETRIES: '1' }).complete(ASK));
      expect(err).toBeInstanceOf(UnavailableError);
      expect(err.message).toBe(`the connection to http://127.0.0.1:${cut.port} was cut (ECONNRESET) 2 times during the run request (localllm)`);
    } finally {
      cut.stop(true);
    }
  });
});

describe('failures in one line', () => {
  test('nothing listening: names the address and the variable, no retry', async () => {
    const port = closedPort();
    const err = await rejection(client(box, { LOCALLLM_HOST: `127.0.0.1:${port}` }).complete(ASK));
    expect(err).toBeInstanceOf(UnavailableError);
    expect(err.message).toBe(`no model backend reachable at http://127.0.0.1:${port} (localllm; LOCALLLM_HOST)`);
    expect((err as SvcError).hint).toBe('start the local model daemon, or set LOCALLLM_HOST, or SVC_BACKEND with a provider key');
  });

  test('a host name that does not resolve', async () => {
    const err = await rejection(client(box, { LOCALLLM_HOST: 'no-such-host.invalid' }).complete(ASK));
    expect(err).toBeInstanceOf(UnavailableError);
    expect(err.message).toBe('no model backend reachable at http://no-such-host.invalid:11434 (localllm; LOCALLLM_HOST)');
  });

  test('an unreachable openai-compatible server names LLM_API_BASE', async () => {
    const port = closedPort();
    const err = await rejection(client(box, { SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `http://127.0.0.1:${port}/v1` }).complete(ASK));
    expect(err.message).toBe(`no model backend reachable at http://127.0.0.1:${port}/v1 (openai-compatible; llm.base_url or LLM_API_BASE)`);
  });

  test('a missing key fails before any request, naming the variable', async () => {
    for (const [backend, variable] of [['providera', 'PROVIDERA_API_KEY'], ['providerb', 'PROVIDERB_API_KEY']]) {
      const err = await rejection(client(box, { SVC_BACKEND: String(backend), LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: 'm' }).complete(ASK));
      expect(err).toBeInstanceOf(InputError);
      expect(err.message).toBe(`${variable} is not set: ${backend} needs it for the run model m`);
    }
    expect(server.requests).toHaveLength(0);
  });

  test('401 names the key variable', async () => {
    server.push({ status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } });
    const err = await rejection(client(box, { SVC_BACKEND: 'providerb', PROVIDERB_API_KEY: 'wrong', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: 'claude-x' }).complete(ASK));
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe('providerb refused the key in PROVIDERB_API_KEY (HTTP 401: invalid x-api-key)');
    expect(server.requests).toHaveLength(1);
  });

  test('a provider that echoes the key in its error does not get it into ours', async () => {
    const key = 'sk-live-0123456789abcdef';
    const hosted = client(box, { SVC_BACKEND: 'providera', PROVIDERA_API_KEY: key, LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: 'gpt-4o-mini', SVC_LLM_MAX_RETRIES: '0' });
    server.push({ status: 401, body: { error: { message: `Incorrect API key provided: ${key}` } } }, { status: 400, body: { error: { message: `bad header: Bearer ${key}` } } });
    expect((await rejection(hosted.complete(ASK))).message).toBe('providera refused the key in PROVIDERA_API_KEY (HTTP 401: Incorrect API key provided: ***)');
    expect((await rejection(hosted.complete(ASK))).message).toBe(`providera at ${server.url}/v1 rejected the run request to gpt-4o-mini (HTTP 400): bad header: Bearer ***`);
  });

  test('a user and password in the API base are not repeated in a message', async () => {
    const port = closedPort();
    const err = await rejection(client(box, { SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `http://user:pw-0123456789@127.0.0.1:${port}/v1` }).complete(ASK));
    expect(err.message).toBe(`no model backend reachable at http://127.0.0.1:${port}/v1 (openai-compatible; llm.base_url or LLM_API_BASE)`);
  });

  test("another 4xx: one line with the provider's message, not retried", async () => {
    server.push({ status: 404, body: { error: { message: "model 'nope' not found", type: 'not_found', code: null } } });
    const err = await rejection(client(box, local(server, { SVC_MODEL: 'nope' })).complete(ASK));
    expect(err).toBeInstanceOf(SvcError);
    expect(err.message).toBe(`localllm at ${server.url} rejected the run request to nope (HTTP 404): model 'nope' not found`);
    expect(server.requests).toHaveLength(1);
  });

  test('an answer larger than any model gives ends the call with one line instead of filling memory', async () => {
    server.push({ raw: ' '.repeat(MAX_ANSWER_BYTES + 1) });
    const announced = await rejection(client(box, local(server)).complete(ASK));
    expect(announced).toBeInstanceOf(TooLargeError);
    expect(announced.message).toBe(`the model server at ${server.url} sent more than ${MAX_ANSWER_BYTES} bytes for one answer`);
    // no length announced, and no end
    const chunk = new Uint8Array(1 << 20).fill(32);
    const endless = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response(new ReadableStream({ pull: (ctl) => ctl.enqueue(chunk) }), { headers: { 'content-type': 'application/json' } }) });
    try {
      const streamed = await rejection(client(box, { LOCALLLM_HOST: `127.0.0.1:${endless.port}` }).complete(ASK));
      expect(streamed).toBeInstanceOf(TooLargeError);
      expect(streamed.message).toBe(`the model server at http://127.0.0.1:${endless.port} sent more than ${MAX_ANSWER_BYTES} bytes for one answer`);
    } finally {
      endless.stop(true);
    }
  });

  test('a reply that is not JSON', async () => {
    server.push({ raw: '{"choices": [' });
    const err = await rejection(client(box, local(server)).complete(ASK));
    expect(err).toBeInstanceOf(SvcError);
    expect(err.message).toStartWith(`localllm at ${server.url} sent a reply to the run request that is not a valid chat completion answer:`);
    expect(err.message).not.toContain('\n');
  });

  test('a backend slower than SVC_LLM_TIMEOUT_S', async () => {
    server.push({ text: 'late', delayMs: 3000 });
    const err = await rejection(client(box, local(server, { SVC_LLM_TIMEOUT_S: '0.3' })).complete(ASK));
    expect(err).toBeInstanceOf(UnavailableError);
    expect(err.message).toBe('localllm gave no answer to the run request to qwen3:4b within 0.3 s (SVC_LLM_TIMEOUT_S)');
  });

  test("the caller's abort ends the call with the caller's reason", async () => {
    server.push({ text: 'late', delayMs: 3000 });
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(new Error('stopped by the user')), 100);
    const err = await rejection(client(box, local(server)).complete({ ...ASK, signal: ctl.signal }));
    expect(err.message).toBe('stopped by the user');
  });

  test('a request without messages is refused before any request', async () => {
    const err = await rejection(client(box, local(server)).complete({ role: 'idea', messages: [] }));
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe('the idea model request has no messages');
    expect(server.requests).toHaveLength(0);
  });

  test('bad limit variables are input errors naming the variable', async () => {
    expect(() => client(box, { SVC_LLM_MAX_RETRIES: 'many' })).toThrow("SVC_LLM_MAX_RETRIES must be a whole number of at least 0, got 'many'");
    expect(() => client(box, { SVC_LLM_TIMEOUT_S: '0' })).toThrow("SVC_LLM_TIMEOUT_S must be a number above 0, got '0'");
    expect(() => client(box, { SVC_LLM_RECORD: 'maybe' })).toThrow("SVC_LLM_RECORD must be on or off, got 'maybe'");
  });
});
