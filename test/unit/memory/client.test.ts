import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, NotFoundError, SvcError, UnavailableError } from '../../../src/core/errors.ts';
import { agentNameFor, MemoryClient } from '../../../src/memory/client.ts';
import { type MemoryServer, startMemoryServer } from '../../../src/memory/server.ts';
import { type LettaServer, startLettaServer } from '../../support/letta-server.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
let svc: MemoryServer;
let letta: LettaServer;
beforeAll(() => {
  dir = tempDir('svc-memclient-');
  svc = startMemoryServer({ port: 0, host: '127.0.0.1', dataDir: join(dir, 'data') });
  letta = startLettaServer();
});
afterAll(async () => {
  await svc.stop();
  await letta.stop();
  removeDir(dir);
});

/** A client that counts its requests by method and path (without the query). */
function counting(baseUrl: string, apiKey?: string) {
  const calls: string[] = [];
  const client = new MemoryClient({
    baseUrl,
    apiKey,
    timeoutMs: 5000,
    fetch: ((url: string, init?: RequestInit) => {
      calls.push(`${init?.method} ${new URL(url).pathname}`);
      return fetch(url, init);
    }) as typeof fetch,
  });
  return { client, calls };
}

const item = (text: string, tags: string[] = [], metadata: Record<string, unknown> = {}) => ({ text, tags, metadata });

for (const kind of ['svc', 'letta'] as const) {
  describe(`against a ${kind} server`, () => {
    const url = () => (kind === 'svc' ? svc.url : letta.url);

    test('health says which server it is', async () => {
      expect(await counting(url()).client.health()).toEqual({ ok: true, version: expect.any(String), server: kind });
    });

    test('ensureAgent creates once; findAgent and listAgents see it; deleteAgent removes it', async () => {
      const { client } = counting(url());
      expect(await client.findAgent(`${kind}-crud`)).toBeNull();
      const id = await client.ensureAgent(`${kind}-crud`);
      expect(await client.ensureAgent(`${kind}-crud`)).toBe(id);
      expect(await client.findAgent(`${kind}-crud`)).toBe(id);
      expect(await client.listAgents()).toContainEqual({ id, name: `${kind}-crud` });
      await client.deleteAgent(id);
      expect(await client.findAgent(`${kind}-crud`)).toBeNull();
      await expect(client.deleteAgent(id)).rejects.toBeInstanceOf(NotFoundError);
    });

    test('listAgents reads every page', async () => {
      const { client } = counting(url());
      const ids = await Promise.all(Array.from({ length: 60 }, (_, i) => client.ensureAgent(`${kind}-many-${i}`)));
      const listed = (await client.listAgents()).map((a) => a.id);
      expect(ids.every((id) => listed.includes(id))).toBe(true);
      await Promise.all(ids.map((id) => client.deleteAgent(id)));
    });

    test('concurrent ensureAgent calls agree on one agent', async () => {
      const ids = await Promise.all(Array.from({ length: 8 }, () => counting(url()).client.ensureAgent(`${kind}-race`)));
      expect(new Set(ids).size).toBe(1);
      expect((await counting(url()).client.listAgents()).filter((a) => a.name === `${kind}-race`).map((a) => a.id)).toEqual([ids[0] as string]);
    });

    test('passages keep their metadata through the text, list oldest first, filter by tag', async () => {
      const { client } = counting(url());
      const id = await client.ensureAgent(`${kind}-passages`);
      const added = await client.addPassages(id, [item('first note', ['node:a'], { node_id: 'a', n: 1 }), item('second note', ['node:b']), item('third', ['node:a', 'kind:x'])]);
      expect(added.map((p) => [p.text, p.tags, p.metadata])).toEqual([
        ['first note', ['node:a'], { node_id: 'a', n: 1 }],
        ['second note', ['node:b'], {}],
        ['third', ['node:a', 'kind:x'], {}],
      ]);
      expect(await client.listPassages(id)).toEqual(added);
      expect(await client.addPassages(id, [])).toEqual([]);
      expect((await client.listPassages(id, { tags: ['node:a'] })).map((p) => p.text)).toEqual(['first note', 'third']);
      expect((await client.listPassages(id, { tags: ['node:a'], limit: 1 })).map((p) => p.text)).toEqual(['first note']);
      expect((await client.listPassages(id, { after: added[0]?.id })).map((p) => p.text)).toEqual(['second note', 'third']);
      await client.deletePassage(id, added[1]?.id ?? '');
      expect((await client.listPassages(id)).map((p) => p.text)).toEqual(['first note', 'third']);
    });

    test('search: best first with scores, tags as an any-match filter, metadata decoded', async () => {
      const { client } = counting(url());
      const id = await client.ensureAgent(`${kind}-search`);
      await client.addPassages(id, [item('learning rate warmup worked', ['node:1'], { k: 'v' }), item('learning stalled', ['node:2']), item('nothing relevant', ['node:3'])]);
      const hits = await client.searchPassages(id, 'learning rate warmup', { topK: 2 });
      expect(hits.map((h) => h.text)).toEqual(['learning rate warmup worked', 'learning stalled']);
      expect(hits[0]?.metadata).toEqual({ k: 'v' });
      expect(hits[0]?.score).toBeGreaterThan(hits[1]?.score ?? Infinity);
      // a semantic (Letta) search also returns the nearest passages that do not match at all
      const tagged = await client.searchPassages(id, 'learning', { tags: ['node:2', 'node:3'], topK: 5 });
      expect(tagged[0]?.text).toBe('learning stalled');
      expect(tagged.every((h) => h.tags.some((t) => t === 'node:2' || t === 'node:3'))).toBe(true);
    });

    test('blocks: missing is null, set creates then replaces', async () => {
      const { client } = counting(url());
      const id = await client.ensureAgent(`${kind}-blocks`);
      expect(await client.getBlock(id, 'experiment_goal')).toBeNull();
      await client.setBlock(id, 'experiment_goal', 'beat the baseline');
      expect(await client.getBlock(id, 'experiment_goal')).toBe('beat the baseline');
      await client.setBlock(id, 'experiment_goal', 'changed');
      expect(await client.getBlock(id, 'experiment_goal')).toBe('changed');
    });

    test('an unknown agent is a NotFoundError', async () => {
      const { client } = counting(url());
      await expect(client.listPassages('agent-00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFoundError);
      await expect(client.addPassages('agent-00000000-0000-4000-8000-000000000000', [item('x')])).rejects.toBeInstanceOf(NotFoundError);
    });
  });
}

describe('requests per server', () => {
  test('svc takes adds in batches of 2000', async () => {
    const { client, calls } = counting(svc.url);
    const id = await client.ensureAgent('batches');
    calls.length = 0;
    const added = await client.addPassages(id, Array.from({ length: 4500 }, (_, i) => item(`n${i}`)));
    expect(calls.filter((c) => c.startsWith('POST'))).toEqual(Array(3).fill(`POST /v1/agents/${id}/archival-memory`));
    expect(added.map((p) => p.text)).toEqual(Array.from({ length: 4500 }, (_, i) => `n${i}`));
  });

  test('svc lists come in pages of 1000 up to the limit, or all', async () => {
    const { client, calls } = counting(svc.url);
    const id = await client.ensureAgent('pages');
    await client.addPassages(id, Array.from({ length: 2500 }, (_, i) => item(`n${i}`, [i % 2 ? 'node:odd' : 'node:even'])));
    calls.length = 0;
    expect((await client.listPassages(id)).map((p) => p.text)).toEqual(Array.from({ length: 2500 }, (_, i) => `n${i}`));
    expect(calls.length).toBe(3);
    expect((await client.listPassages(id, { limit: 1500, tags: ['node:odd'] })).map((p) => p.text)).toEqual(Array.from({ length: 1250 }, (_, i) => `n${2 * i + 1}`));
    expect((await client.listPassages(id, { limit: 1001 })).length).toBe(1001);
  });

  test('letta gets one passage per request, and tag-filtered lists page through everything', async () => {
    const { client, calls } = counting(letta.url);
    const id = await client.ensureAgent('one-by-one');
    await client.addPassages(id, Array.from({ length: 1003 }, (_, i) => item(`n${i}`, [i % 1000 === 1 ? 'node:rare' : 'node:common'])));
    expect(calls.filter((c) => c.startsWith('POST')).length).toBe(1 + 1003);
    expect((await client.listPassages(id, { tags: ['node:rare'] })).map((p) => p.text)).toEqual(['n1', 'n1001']);
  });

  test('letta search results without a score keep their order as 1/(1+rank)', async () => {
    const { client } = counting(letta.url);
    const id = await client.ensureAgent('scores');
    await client.addPassages(id, [item('alpha beta'), item('alpha')]);
    expect((await client.searchPassages(id, 'alpha beta', { topK: 5 })).map((h) => h.score)).toEqual([1, 0.5]);
  });

  test('letta: asking for vectors lists the passages without them, and reindex is refused in one line', async () => {
    const { client, calls } = counting(letta.url);
    const id = await client.ensureAgent('vectors');
    await client.addPassages(id, [{ ...item('alpha'), vector: { model: 'm', data: 'AACAPw==' } }]);
    calls.length = 0;
    expect((await client.listPassages(id, { vectors: true })).map((p) => [p.text, p.vector])).toEqual([['alpha', undefined]]);
    expect(calls.some((c) => c.includes('include_vectors'))).toBe(false);
    await expect(client.reindexPassages(id, 10)).rejects.toThrow(`the memory server at ${letta.url} is Letta, which embeds passages as they are added: nothing to reindex`);
  });

  test('on letta the oldest agent of a name wins', async () => {
    const post = () => fetch(`${letta.url}/v1/agents/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'dup', model: 'm', embedding: 'e' }) }).then((r) => r.json() as Promise<{ id: string }>);
    const first = await post();
    await post();
    expect(await counting(letta.url).client.ensureAgent('dup')).toBe(first.id);
  });
});

describe('failures', () => {
  test('a wrong or missing key names MEMBACKEND_API_KEY; the right key works', async () => {
    const data = join(dir, 'keyed');
    const keyed = startMemoryServer({ port: 0, host: '127.0.0.1', dataDir: data, apiKey: 'k1' });
    const keyedLetta = startLettaServer({ apiKey: 'k1' });
    try {
      for (const base of [keyed.url, keyedLetta.url]) {
        for (const key of [undefined, 'wrong']) {
          const err = await counting(base, key).client.listAgents().catch((e: unknown) => e);
          expect(err).toBeInstanceOf(SvcError);
          expect((err as SvcError).message).toContain('MEMBACKEND_API_KEY');
          expect((err as SvcError).message).toContain('401');
        }
        expect(await counting(base, 'k1').client.listAgents()).toEqual([]);
      }
    } finally {
      await keyed.stop();
      await keyedLetta.stop();
    }
  });

  test('nothing listening: UnavailableError naming the URL and MEMBACKEND_BASE_URL', async () => {
    const closed = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') });
    const base = `http://127.0.0.1:${closed.port}`;
    await closed.stop(true);
    const err = await counting(base).client.health().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnavailableError);
    expect((err as Error).message).toContain(base);
    expect((err as Error).message).toContain('MEMBACKEND_BASE_URL');
    expect((err as Error).message).not.toContain('\n');
  });

  test('a server that never answers: UnavailableError after the timeout', async () => {
    const silent = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
    try {
      const client = new MemoryClient({ baseUrl: `http://127.0.0.1:${silent.port}`, timeoutMs: 200 });
      const err = await client.searchPassages('agent-x', 'q', { topK: 5 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UnavailableError);
      expect((err as Error).message).toContain('no answer within 0.2 s');
    } finally {
      silent.stop(true);
    }
  });

  test('an answer that is not JSON is UnavailableError, not a crash', async () => {
    const html = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('<html>hi</html>') });
    try {
      await expect(counting(`http://127.0.0.1:${html.port}`).client.listAgents()).rejects.toBeInstanceOf(UnavailableError);
    } finally {
      await html.stop(true);
    }
  });
});

describe('fromEnv and agent names', () => {
  test('fromEnv reads the base URL, key and timeout; a bad timeout is an InputError', async () => {
    const keyed = startMemoryServer({ port: 0, host: '127.0.0.1', dataDir: join(dir, 'env'), apiKey: 'k2' });
    try {
      const client = MemoryClient.fromEnv({ MEMBACKEND_BASE_URL: keyed.url, MEMBACKEND_API_KEY: 'k2', SVC_MEMORY_LETTA_TIMEOUT_S: '3' });
      expect((await client.health()).server).toBe('svc');
      expect(client.baseUrl).toBe(keyed.url);
    } finally {
      await keyed.stop();
    }
    expect(MemoryClient.fromEnv({}).baseUrl).toBe('http://localhost:8283');
    for (const bad of ['0', '-1', 'ten']) expect(() => MemoryClient.fromEnv({ SVC_MEMORY_LETTA_TIMEOUT_S: bad })).toThrow(InputError);
  });

  test('agentNameFor: prefix, 12 hex digits of the real path', () => {
    const real = join(dir, 'ckpt');
    mkdirSync(real);
    symlinkSync(real, join(dir, 'link'));
    const name = agentNameFor(real);
    expect(name).toMatch(/^svc_agent_[0-9a-f]{12}$/);
    expect(agentNameFor(join(dir, 'link'))).toBe(name);
    expect(agentNameFor(real, 'x_')).toBe(name.replace(/^svc_/, 'x_'));
    expect(agentNameFor(join(dir, 'other'))).not.toBe(name);
  });
});
