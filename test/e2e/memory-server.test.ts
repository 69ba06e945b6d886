// The memory server over HTTP: Letta's shapes, errors, authentication, concurrent writers, and
// durability when the server process is killed (`svc memory serve` in a child process).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryClient } from '../../src/memory/client.ts';
import { type MemoryServer, startMemoryServer } from '../../src/memory/server.ts';
import { MAX_BODY_BYTES } from '../../src/memory/server.ts';
import { removeDir, SVC, tempDir } from '../support/svc.ts';


let dir: string;
let server: MemoryServer;
beforeAll(() => {
  dir = tempDir('svc-memserver-');
  server = startMemoryServer({ port: 0, host: '127.0.0.1', dataDir: join(dir, 'main') });
});
afterAll(async () => {
  await server.stop();
  removeDir(dir);
});

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}, base = server.url) {
  const res = await fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}

async function newAgent(name: string): Promise<string> {
  const res = await call('POST', '/v1/agents/', { name });
  expect(res.status).toBe(200);
  return res.body.id;
}

describe("Letta's paths and shapes", () => {
  test('health says it is svc, and that without an embedding model it ranks by BM25', async () => {
    expect(await call('GET', '/v1/health/')).toEqual({ status: 200, body: { version: expect.any(String), status: 'ok', server: 'svc', embedding: null, search: 'bm25' } });
  });

  test('agents: create, get, list by name, delete with its passages and blocks', async () => {
    const created = await call('POST', '/v1/agents/', { name: 'shapes', tags: ['t'], memory_blocks: [{ label: 'persona', value: 'p' }] });
    expect(created.body).toEqual({ id: expect.stringMatching(/^agent-[0-9a-f-]{36}$/), name: 'shapes', tags: ['t'], created_at: expect.any(String) });
    const id = created.body.id;
    expect((await call('GET', `/v1/agents/${id}`)).body).toEqual(created.body);
    expect((await call('GET', '/v1/agents/?name=shapes')).body).toEqual([created.body]);
    expect((await call('GET', '/v1/agents?name=nobody')).body).toEqual([]);
    expect((await call('GET', `/v1/agents/${id}/core-memory/blocks/persona`)).body).toEqual({ label: 'persona', value: 'p' });
    await call('POST', `/v1/agents/${id}/archival-memory`, { text: 'x' });
    expect((await call('DELETE', `/v1/agents/${id}`)).status).toBe(200);
    for (const path of ['', '/archival-memory', '/core-memory/blocks/persona']) expect((await call('GET', `/v1/agents/${id}${path}`)).status).toBe(404);
    expect((await call('POST', '/v1/agents/', { name: 'shapes' })).status).toBe(200);
  });

  test('a taken agent name is 409 and changes nothing', async () => {
    const id = await newAgent('taken');
    const res = await call('POST', '/v1/agents/', { name: 'taken' });
    expect(res).toEqual({ status: 409, body: { detail: "an agent named 'taken' already exists" } });
    expect((await call('GET', '/v1/agents/?name=taken')).body.map((a: { id: string }) => a.id)).toEqual([id]);
  });

  test('archival memory: add one or a batch, list, search, delete', async () => {
    const id = await newAgent('archival');
    const one = await call('POST', `/v1/agents/${id}/archival-memory`, { text: 'learning rate warmup', tags: ['node:1', 'kind:a'] });
    expect(one.body).toEqual([{ id: expect.stringMatching(/^passage-[0-9a-f-]{36}$/), text: 'learning rate warmup', tags: ['node:1', 'kind:a'], agent_id: id, created_at: expect.any(String) }]);
    const batch = await call('POST', `/v1/agents/${id}/archival-memory/`, { passages: [{ text: 'learning stalled', tags: ['node:2'] }, { text: 'other' }] });
    expect(batch.body.map((p: { text: string; tags: string[] }) => [p.text, p.tags])).toEqual([
      ['learning stalled', ['node:2']],
      ['other', []],
    ]);
    const list = await call('GET', `/v1/agents/${id}/archival-memory?limit=2&ascending=false`);
    expect(list.body.map((p: { text: string }) => p.text)).toEqual(['other', 'learning stalled']);
    expect((await call('GET', `/v1/agents/${id}/archival-memory?tags=node:1&tags=node:2`)).body.length).toBe(2);

    const search = await call('GET', `/v1/agents/${id}/archival-memory/search?query=learning%20warmup&top_k=5`);
    expect(search.body.count).toBe(2);
    expect(search.body.results[0]).toEqual({ id: one.body[0].id, timestamp: one.body[0].created_at, content: 'learning rate warmup', tags: ['node:1', 'kind:a'], score: expect.any(Number) });
    const all = await call('GET', `/v1/agents/${id}/archival-memory/search?query=learning&tags=node:1&tags=kind:a&tag_match_mode=all`);
    expect(all.body.results.map((r: { content: string }) => r.content)).toEqual(['learning rate warmup']);
    const none = await call('GET', `/v1/agents/${id}/archival-memory/search?query=learning&tags=node:1&tags=node:2&tag_match_mode=all`);
    expect(none.body).toEqual({ results: [], count: 0 });

    expect((await call('DELETE', `/v1/agents/${id}/archival-memory/${one.body[0].id}`)).status).toBe(200);
    expect((await call('DELETE', `/v1/agents/${id}/archival-memory/${one.body[0].id}`)).status).toBe(404);
    expect((await call('GET', `/v1/agents/${id}/archival-memory`)).body.length).toBe(2);
  });

  test('core-memory blocks: PATCH sets (and creates), GET reads, a missing label is 404', async () => {
    const id = await newAgent('blocks');
    expect((await call('GET', `/v1/agents/${id}/core-memory/blocks/human`)).status).toBe(404);
    expect((await call('PATCH', `/v1/agents/${id}/core-memory/blocks/human`, { value: 'v1' })).body).toEqual({ label: 'human', value: 'v1' });
    await call('PATCH', `/v1/agents/${id}/core-memory/blocks/human`, { value: 'v2' });
    expect((await call('GET', `/v1/agents/${id}/core-memory/blocks/human`)).body.value).toBe('v2');
  });
});

describe('bad requests are 4xx {detail} and change nothing', () => {
  let id: string;
  beforeAll(async () => {
    id = await newAgent('bad');
  });
  const count = async () => (await call('GET', `/v1/agents/${id}/archival-memory?limit=10000`)).body.length;

  test.each([
    ['malformed JSON', '{"text": ', 400, 'malformed request body: expected valid JSON (or the declared content type)'],
    ['an empty body', '', 422, 'body: Expected object'],
    ['a JSON array', '[]', 422, 'body: Expected object'],
    ['no text', '{"tags": []}', 422, 'body.text: give the passage text, or a batch as passages'],
    ['tags not strings', '{"text": "x", "tags": [1]}', 422, 'body.tags: Expected union value'],
    ['a bad batch item (the batch is all or nothing)', '{"passages": [{"text": "ok"}, {"text": 5}]}', 422, 'body.passages.1.text: Expected string'],
    ['passages not a list', '{"passages": "x"}', 422, 'body.passages: Expected array'],
  ])('%s', async (_what, body, status, detail) => {
    const before = await count();
    expect(await call('POST', `/v1/agents/${id}/archival-memory`, body)).toEqual({ status, body: { detail } });
    expect(await count()).toBe(before);
  });

  test('a body not sent as JSON (what a web page can post cross-site without asking) is 415', async () => {
    const before = await count();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonp', '']) {
      expect(await call('POST', `/v1/agents/${id}/archival-memory`, { text: 'planted' }, { 'content-type': type })).toEqual({ status: 415, body: { detail: 'the body must be sent as Content-Type: application/json' } });
      expect((await call('POST', '/v1/agents/', { name: `planted ${type}`, memory_blocks: [{ label: 'experiment_goal', value: 'planted' }] }, { 'content-type': type })).status).toBe(415);
    }
    expect(await count()).toBe(before);
    expect((await call('GET', '/v1/agents/')).body.map((a: { name: string }) => a.name)).not.toContain('planted text/plain');
    expect((await call('POST', `/v1/agents/${id}/archival-memory`, { text: 'fine' }, { 'content-type': 'Application/JSON; charset=utf-8' })).status).toBe(200);
  });

  test('a body over 16 MB is 413, declared or streamed', async () => {
    const before = await count();
    const big = JSON.stringify({ text: 'x'.repeat(MAX_BODY_BYTES) });
    expect(await call('POST', `/v1/agents/${id}/archival-memory`, big)).toEqual({ status: 413, body: { detail: 'request body too large: the limit for this endpoint is 16 MB' } });
    const huge = JSON.stringify({ text: 'x'.repeat(3 * MAX_BODY_BYTES) });
    expect(await call('POST', `/v1/agents/${id}/archival-memory`, huge)).toEqual({ status: 413, body: { detail: 'request body too large: the limit for this endpoint is 16 MB' } });
    const chunk = new TextEncoder().encode('x'.repeat(1024 * 1024));
    let sent = 0;
    const stream = new ReadableStream({
      pull(c) {
        if (sent++ < 17) c.enqueue(chunk);
        else c.close();
      },
    });
    const res = await fetch(`${server.url}/v1/agents/${id}/archival-memory`, { method: 'POST', body: stream, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(await count()).toBe(before);
  });

  test('unknown agent, endpoint or method; bad parameters', async () => {
    const none = 'agent-00000000-0000-4000-8000-000000000000';
    expect(await call('POST', `/v1/agents/${none}/archival-memory`, { text: 'x' })).toEqual({ status: 404, body: { detail: `agent ${none} not found` } });
    expect((await call('GET', `/v1/agents/${none}/archival-memory/search?query=x`)).status).toBe(404);
    expect((await call('DELETE', `/v1/agents/${none}`)).status).toBe(404);
    expect(await call('GET', '/v1/agents/%E0%A4%A')).toEqual({ status: 400, body: { detail: 'malformed percent-encoding in the path' } });
    expect((await call('GET', '/v1/nothing')).body).toEqual({ detail: 'no such endpoint: GET /v1/nothing' });
    expect(await call('PUT', '/v1/agents')).toEqual({ status: 405, body: { detail: 'PUT is not allowed on /v1/agents: use GET or POST' } });
    expect((await call('GET', `/v1/agents/${id}/archival-memory?limit=0`)).status).toBe(400);
    expect((await call('GET', `/v1/agents/${id}/archival-memory?limit=abc`)).status).toBe(400);
    expect((await call('GET', `/v1/agents/${id}/archival-memory?ascending=maybe`)).status).toBe(400);
    expect((await call('GET', `/v1/agents/${id}/archival-memory/search?query=x&top_k=100001`)).status).toBe(400);
    expect((await call('GET', `/v1/agents/${id}/archival-memory/search?query=x&tag_match_mode=some`)).status).toBe(422);
    expect((await call('POST', '/v1/agents/', { name: '  ' })).status).toBe(422);
    expect((await call('PATCH', `/v1/agents/${id}/core-memory/blocks/x`, { value: 1 })).status).toBe(422);
  });
});

test('with MEMBACKEND_API_KEY set, requests need the bearer key', async () => {
  const keyed = startMemoryServer({ port: 0, host: '127.0.0.1', dataDir: join(dir, 'keyed'), apiKey: 's3cret' });
  try {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: 's3cret' }] as Record<string, string>[]) {
      const res = await call('GET', '/v1/agents/', undefined, headers, keyed.url);
      expect(res.status).toBe(401);
      expect(res.body.detail).toContain('Authorization: Bearer');
    }
    expect(await call('GET', '/v1/agents/', undefined, { authorization: 'Bearer s3cret' }, keyed.url)).toEqual({ status: 200, body: [] });
  } finally {
    await keyed.stop();
  }
});

test('on loopback, a request naming another host (a rebound web page) is 421 and changes nothing', async () => {
  const port = new URL(server.url).port;
  const before = (await call('GET', '/v1/agents/')).body.length;
  for (const host of [`evil.example:${port}`, 'evil.example', `10.0.0.1:${port}`, `localhost.evil.example:${port}`, `127.0.0.1.evil.example`, '']) {
    expect(await call('POST', '/v1/agents/', { name: `rebound-${host}` }, { host })).toEqual({ status: 421, body: { detail: 'this server answers only to 127.0.0.1, localhost and [::1]' } });
    expect((await call('GET', '/v1/agents/', undefined, { host })).status).toBe(421);
  }
  expect((await call('GET', '/v1/agents/')).body.length).toBe(before);
  // any port: an SSH tunnel or a proxy on another port names its own
  for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`, 'localhost:9000', 'localhost']) {
    expect((await call('GET', '/v1/health', undefined, { host })).status).toBe(200);
  }
});

test('20 concurrent writers of 100 adds each lose nothing', async () => {
  const agentId = await new MemoryClient({ baseUrl: server.url, timeoutMs: 30_000 }).ensureAgent('concurrent');
  const writer = async (w: number) => {
    const client = new MemoryClient({ baseUrl: server.url, timeoutMs: 30_000 });
    for (let i = 0; i < 100; i++) await client.addPassages(agentId, [{ text: `w${w} i${i}`, tags: [`node:w${w}`], metadata: { w, i } }]);
  };
  await Promise.all(Array.from({ length: 20 }, (_, w) => writer(w)));
  const all = await new MemoryClient({ baseUrl: server.url, timeoutMs: 30_000 }).listPassages(agentId, { limit: 10_000 });
  expect(all.length).toBe(2000);
  expect(new Set(all.map((p) => p.text)).size).toBe(2000);
  expect(new Set(all.map((p) => p.id)).size).toBe(2000);
  expect(all.filter((p) => p.tags[0] === 'node:w7').map((p) => p.metadata.i)).toEqual(Array.from({ length: 100 }, (_, i) => i));
});

test('two servers on one data directory: concurrent writers through both lose nothing', async () => {
  const data = join(dir, 'shared');
  const servers = [await spawnServer(data), await spawnServer(data)];
  try {
    const clients = servers.map((s) => new MemoryClient({ baseUrl: s.url, timeoutMs: 30_000 }));
    const agentId = await (clients[0] as MemoryClient).ensureAgent('shared');
    const writes = Array.from({ length: 400 }, (_, i) => (clients[i % 2] as MemoryClient).addPassages(agentId, [{ text: `w${i}`, tags: [`node:n${i % 7}`], metadata: {} }]));
    expect((await Promise.allSettled(writes)).filter((r) => r.status === 'rejected')).toEqual([]);
    for (const c of clients) expect(new Set((await c.listPassages(agentId, { limit: 10_000 })).map((p) => p.text)).size).toBe(400);
  } finally {
    for (const s of servers) s.proc.kill('SIGKILL');
    await Promise.all(servers.map((s) => s.proc.exited));
  }
});

/** `svc memory serve` in a child process; resolves once it says where it listens. */
async function spawnServer(dataDir: string, env: Record<string, string> = {}) {
  const proc = Bun.spawn([SVC, 'memory', 'serve', '--port', '0', '--data-dir', dataDir], { stdout: 'pipe', stderr: 'pipe', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, ...env } });
  const reader = proc.stderr.getReader();
  let said = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`memory server exited: ${said}`);
    said += new TextDecoder().decode(value);
    const url = /at (http:\/\/\S+)/.exec(said)?.[1];
    if (url) {
      const banner = said;
      const rest = (async () => {
        for (;;) {
          const r = await reader.read();
          if (r.done) return said;
          said += new TextDecoder().decode(r.value);
        }
      })();
      return { proc, url, banner, stderr: rest };
    }
  }
}

test('a server killed with SIGKILL keeps every acknowledged write', async () => {
  const data = join(dir, 'killed');
  const first = await spawnServer(data);
  const client = new MemoryClient({ baseUrl: first.url, timeoutMs: 30_000 });
  const agentId = await client.ensureAgent('durable');
  const texts: string[] = [];
  for (let i = 0; i < 50; i++) {
    const batch = Array.from({ length: i % 5 === 0 ? 40 : 1 }, (_, j) => ({ text: `note ${i}.${j}`, tags: [`node:${i}`], metadata: {} }));
    await client.addPassages(agentId, batch);
    texts.push(...batch.map((b) => b.text));
  }
  await client.setBlock(agentId, 'experiment_goal', 'kept');
  first.proc.kill('SIGKILL');
  expect(await first.proc.exited).not.toBe(0);

  const second = await spawnServer(data);
  try {
    const again = new MemoryClient({ baseUrl: second.url, timeoutMs: 30_000 });
    expect(await again.findAgent('durable')).toBe(agentId);
    expect((await again.listPassages(agentId, { limit: 10_000 })).map((p) => p.text)).toEqual(texts);
    expect(await again.getBlock(agentId, 'experiment_goal')).toBe('kept');
    expect((await again.searchPassages(agentId, 'note', { tags: ['node:49'], topK: 5 })).length).toBe(1);
  } finally {
    second.proc.kill('SIGKILL');
    await second.proc.exited;
  }
});

test('SIGTERM finishes the request in flight, then closes the database and exits 0', async () => {
  const data = join(dir, 'stopped');
  const child = await spawnServer(data);
  const agentId = await new MemoryClient({ baseUrl: child.url, timeoutMs: 30_000 }).ensureAgent('graceful');
  // the body arrives in two parts; the signal lands between them
  let release: () => void = () => {};
  const secondHalf = new Promise<void>((r) => (release = r));
  const body = JSON.stringify({ passages: Array.from({ length: 500 }, (_, i) => ({ text: `in flight ${i}` })) });
  const stream = new ReadableStream({
    async start(c) {
      c.enqueue(new TextEncoder().encode(body.slice(0, 1000)));
      await secondHalf;
      c.enqueue(new TextEncoder().encode(body.slice(1000)));
      c.close();
    },
  });
  const answer = fetch(`${child.url}/v1/agents/${agentId}/archival-memory`, { method: 'POST', body: stream, headers: { 'content-type': 'application/json' } });
  await Bun.sleep(200);
  child.proc.kill('SIGTERM');
  await Bun.sleep(200);
  release();
  const res = await answer;
  expect(res.status).toBe(200);
  expect(((await res.json()) as unknown[]).length).toBe(500);
  expect(await child.proc.exited).toBe(0);
  expect(await child.stderr).toContain('svc memory: stopping');
  // a cleanly closed database has folded its write-ahead log back in and removed it
  expect(existsSync(join(data, 'memory.db-wal'))).toBe(false);

  const again = await spawnServer(data);
  try {
    expect((await new MemoryClient({ baseUrl: again.url, timeoutMs: 30_000 }).listPassages(agentId, { limit: 1000 })).length).toBe(500);
  } finally {
    again.proc.kill('SIGKILL');
    await again.proc.exited;
  }
});

test('the serve command requires MEMBACKEND_API_KEY when it is set', async () => {
  const child = await spawnServer(join(dir, 'keyed-cli'), { MEMBACKEND_API_KEY: 'k3' });
  try {
    expect(child.banner).toContain('(MEMBACKEND_API_KEY required)');
    const refused = await new MemoryClient({ baseUrl: child.url, timeoutMs: 5000 }).listAgents().catch((e: Error) => e.message);
    expect(refused).toContain('MEMBACKEND_API_KEY');
    expect(await new MemoryClient({ baseUrl: child.url, apiKey: 'k3', timeoutMs: 5000 }).listAgents()).toEqual([]);
  } finally {
    child.proc.kill('SIGKILL');
    await child.proc.exited;
  }
});

describe('the serve command', () => {
  const run = async (args: string[]) => {
    const proc = Bun.spawn([SVC, 'memory', 'serve', ...args], { stdout: 'pipe', stderr: 'pipe' });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { stdout, stderr, code };
  };

  test('--help names the defaults', async () => {
    const { stdout, code } = await run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('default 8283');
    expect(stdout).toContain('default 127.0.0.1');
    expect(stdout).toContain('default ~/.svc/memory');
  });

  test('a bad port is a usage error; a port in use says so', async () => {
    const bad = await run(['--port', 'http']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--port must be a whole number from 0 to 65535, got 'http'");
    const taken = await run(['--port', String(server.url.split(':').pop()), '--data-dir', join(dir, 'taken')]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('is in use');
  });

  test('a --data-dir that cannot hold the database: one line naming the file, exit 2, the file left as it was', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'notes');
    const notDb = join(dir, 'not-a-db');
    mkdirSync(notDb);
    writeFileSync(join(notDb, 'memory.db'), 'x'.repeat(200));
    for (const [dataDir, why] of [
      [file, 'EEXIST'],
      [join(file, 'sub'), 'ENOTDIR'],
      [notDb, 'file is not a database'],
    ] as const) {
      const r = await run(['--port', '0', '--data-dir', dataDir]);
      expect(r).toMatchObject({ code: 2, stdout: '' });
      expect(r.stderr).toStartWith(`svc: cannot use ${join(dataDir, 'memory.db')} as the memory database: ${why}`);
      expect(r.stderr.split('\n')).toHaveLength(2);
    }
    expect(readFileSync(file, 'utf8')).toBe('notes');
    expect(readFileSync(join(notDb, 'memory.db'), 'utf8')).toBe('x'.repeat(200));
  });
});
