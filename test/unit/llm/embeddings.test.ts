import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../../src/core/errors.ts';
import { embeddingHandle } from '../../../src/llm/embedding-handle.ts';
import { createEmbedder, EMBED_BATCH, embedderFor } from '../../../src/llm/embeddings.ts';
import { BudgetExceededError, ModelUnreachableError } from '../../../src/llm/errors.ts';
import { EMBEDDING_DIMS, scriptedEmbedding } from '../../support/model-server-embeddings.ts';
import type { ModelServer } from '../../support/model-server.ts';
import { closedPort, freshEachTest, rejection, type Sandbox } from './helpers.ts';

let box: Sandbox;
let server: ModelServer;
freshEachTest((b, s) => {
  box = b;
  server = s;
});

const hostOf = (s: ModelServer) => s.url.replace('http://', '');

/** Each backend that serves embeddings, the environment pointing it at the scripted server, and the path it posts to. */
const BACKENDS = [
  { backend: 'localllm', env: (s: ModelServer) => ({ LOCALLLM_HOST: hostOf(s) }), path: '/api/embed' },
  { backend: 'providera', env: (s: ModelServer) => ({ SVC_BACKEND: 'providera', PROVIDERA_API_KEY: 'sk-a', LLM_API_BASE: `${s.url}/v1` }), path: '/v1/embeddings' },
  { backend: 'openai-compatible', env: (s: ModelServer) => ({ SVC_BACKEND: 'vllm', LLM_API_BASE: `${s.url}/v1`, LLM_API_KEY: 'k-c' }), path: '/v1/embeddings' },
] as const;

function embedder(env: Record<string, string>, opts: { handle?: string; checkpoint?: boolean } = {}) {
  return createEmbedder({ cfg: box.load(env), handle: opts.handle ?? 'scripted-embed', source: 'the test', checkpointDir: opts.checkpoint ? box.checkpoint : null });
}

const ledgerLines = () =>
  readFileSync(join(box.checkpoint, 'cost_trace.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe.each(BACKENDS)('$backend embeddings through its real client', ({ backend, env, path }) => {
  test("one vector per text, in order, the scripted model's", async () => {
    const e = embedder(env(server));
    const texts = ['the kernel ran out of shared memory', 'OOM in the CUDA launch', 'sorting with fewer comparisons'];
    const vectors = await e.embed(texts);
    expect(e.choice).toMatchObject({ backend, model: 'scripted-embed', role: 'embedding' });
    expect(vectors).toHaveLength(3);
    for (const [i, v] of vectors.entries()) {
      expect(v).toHaveLength(EMBEDDING_DIMS);
      expect(v[0]).toBeCloseTo(scriptedEmbedding(texts[i] as string)[0] as number, 6);
    }
    expect(server.requests.map((r) => r.path)).toEqual([path]);
  });

  test('texts beyond a batch go in several requests, each in the ledger with its tokens', async () => {
    const texts = Array.from({ length: EMBED_BATCH + 3 }, (_, i) => `passage number ${i} about memory`);
    const vectors = await embedder(env(server), { checkpoint: true }).embed(texts, { meta: { component: 'memory', op: 'embed_passages' } });
    expect(vectors).toHaveLength(texts.length);
    expect(server.requests.map((r) => ((r.body as { input: string[] }).input).length)).toEqual([EMBED_BATCH, 3]);
    const lines = ledgerLines();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ model: 'scripted-embed', backend, component: 'memory', op: 'embed_passages', phase: 'embedding', embedding_tokens: EMBED_BATCH * 5, completion_tokens: 0 });
    expect(lines[1]?.embedding_tokens).toBe(15);
  });

  test('a model the server does not serve: one line naming it', async () => {
    const err = await rejection(embedder(env(server), { handle: 'no-such-embedder' }).embed(['x']));
    expect(err.message).toContain('no-such-embedder');
    expect(err.message).toContain('HTTP 404');
    expect(err.message).not.toContain('\n');
  });
});

test('a 503 is retried and the answer used', async () => {
  server.failEmbeddings({ status: 503 });
  const vectors = await embedder({ ...BACKENDS[1].env(server), SVC_LLM_MAX_RETRIES: '2' }).embed(['memory']);
  expect(vectors).toHaveLength(1);
  expect(server.requests).toHaveLength(2);
});

test('a 503 every time gives up after the retries, saying how often', async () => {
  server.failEmbeddings({ status: 503 }, { status: 503 }, { status: 503 });
  const err = await rejection(embedder({ ...BACKENDS[0].env(server), SVC_LLM_MAX_RETRIES: '1' }).embed(['memory']));
  expect(err.message).toContain('answered HTTP 503 2 times');
  expect(server.requests).toHaveLength(2);
});

test('an endpoint that is down is ModelUnreachable, naming where it looked', async () => {
  const port = closedPort();
  const err = await rejection(embedder({ LOCALLLM_HOST: `127.0.0.1:${port}` }).embed(['memory']));
  expect(err).toBeInstanceOf(ModelUnreachableError);
  expect(err.message).toContain(`127.0.0.1:${port}`);
});

test('the budget stops an embedding call before it is made', async () => {
  const e = embedder({ ...BACKENDS[1].env(server), SVC_BUDGET_USD: '0' }, { checkpoint: true });
  expect(await rejection(e.embed(['memory']))).toBeInstanceOf(BudgetExceededError);
  expect(server.requests).toHaveLength(0);
});

test('providerb has no embeddings: the error says which backends do', async () => {
  const err = await rejection(embedder({ SVC_BACKEND: 'providerb', PROVIDERB_API_KEY: 'sk-b' }).embed(['x']));
  expect(err).toBeInstanceOf(InputError);
  expect(err.message).toBe('providerb has no embeddings API, so it cannot serve the embedding model scripted-embed');
});

test("a handle's prefix picks the backend, as Letta's handles do", async () => {
  const e = embedder({ ...BACKENDS[0].env(server), PROVIDERA_API_KEY: 'sk-a', LLM_API_BASE: `${server.url}/v1` }, { handle: 'openai/scripted-embed' });
  expect(e.choice).toMatchObject({ backend: 'providera', model: 'scripted-embed' });
});

test('recorded embeddings replay offline from the cassette, batch by batch', async () => {
  const texts = Array.from({ length: EMBED_BATCH + 1 }, (_, i) => `text ${i} of the recording`);
  const recorded = await embedder(BACKENDS[1].env(server), { checkpoint: true }).embed(texts);
  server.stop();
  const replay = createEmbedder({ cfg: box.load({ SVC_BACKEND: 'replay', SVC_REPLAY_CASSETTE: join(box.checkpoint, 'llm_cassette.jsonl') }), handle: 'scripted-embed', source: 'the test', checkpointDir: null });
  expect(await replay.embed(texts)).toEqual(recorded);
  // other texts were never recorded
  const err = await rejection(replay.embed(['a text nobody embedded']));
  expect(err.message).toContain('replay diverged from the recording: the embedding request to scripted-embed for 1 text');
});

test("'default', 'none' and nothing name no embedding model", () => {
  for (const v of ['default', 'none', '', ' ', null, undefined]) expect(embeddingHandle(v)).toBeNull();
  expect(embeddingHandle(' localllm/nomic-embed-text ')).toBe('localllm/nomic-embed-text');
  expect(embedderFor(box.load({}), 'default', 'MEMBACKEND_EMBEDDING_CONFIG')).toBeNull();
});
