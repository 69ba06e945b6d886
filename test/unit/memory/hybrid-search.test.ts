import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { mkdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import type { LogObject } from 'consola/core';
import { log } from '../../../src/core/log.ts';
import { CHECKPOINT_BLOCK } from '../../../src/memory/checkpoint-agent.ts';
import { MemoryClient } from '../../../src/memory/client.ts';
import { BACKUP_FILE, writeBackupFile } from '../../../src/memory/backup-format.ts';
import { backupCheckpointMemory } from '../../../src/memory/backup.ts';
import { ensureCheckpointAgent } from '../../../src/memory/checkpoint-agent.ts';
import { reindexAgents } from '../../../src/memory/reindex.ts';
import { restoreCheckpointMemory } from '../../../src/memory/restore.ts';
import { type MemoryServer, startMemoryServer } from '../../../src/memory/server.ts';
import { DATABASE_FILE, MemoryStore } from '../../../src/memory/store.ts';
import { unpackVector, vectorText } from '../../../src/memory/store-vectors.ts';
import { makeCheckpoint } from './backup-server.ts';
import { scriptedEmbedding } from '../../support/model-server-embeddings.ts';
import { type ModelServer, startModelServer } from '../../support/model-server.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
let models: ModelServer;
const servers: MemoryServer[] = [];
beforeEach(() => {
  dir = tempDir('svc-memvec-');
  mkdirSync(join(dir, 'home'));
  models = startModelServer();
});
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
  models.stop();
  removeDir(dir);
});

/** The model layer's settings pointing at the scripted model server; with `model`, the server's embedding model. */
function envFor(model: string | null, more: Record<string, string> = {}): Record<string, string> {
  return {
    HOME: join(dir, 'home'),
    SVC_BACKEND: 'localllm',
    LOCALLLM_HOST: models.url.replace('http://', ''),
    SVC_LLM_MAX_RETRIES: '0',
    ...(model === null ? {} : { MEMBACKEND_EMBEDDING_CONFIG: model }),
    ...more,
  };
}

function serve(model: string | null = 'scripted-embed', more: Record<string, string> = {}, data = 'db'): MemoryClient {
  const server = startMemoryServer({ port: 0, host: '127.0.0.1', dataDir: join(dir, data), env: envFor(model, more) });
  servers.push(server);
  return new MemoryClient({ baseUrl: server.url, timeoutMs: 10_000 });
}

async function stopAll(): Promise<void> {
  for (const s of servers.splice(0)) await s.stop();
}

/** What the logger says while `run` runs. */
async function told(run: () => Promise<unknown>): Promise<string[]> {
  const lines: string[] = [];
  const reporter = { log: (entry: LogObject) => lines.push(`${entry.tag}: ${entry.args.join(' ')}`) };
  log.addReporter(reporter);
  try {
    await run();
  } finally {
    log.removeReporter(reporter);
  }
  return lines;
}

/** The stored vectors by passage id, read from the database beside the server. */
function storedVectors(ids: string[], data = 'db'): Map<string, { model: string; vector: Uint8Array }> {
  const store = MemoryStore.open(join(dir, data));
  try {
    return store.vectorsOf(ids);
  } finally {
    store.close();
  }
}

const embedRequests = () => models.requests.filter((r) => r.path === '/api/embed');
const texts = (rs: { text: string }[]) => rs.map((r) => r.text);

const OOM = 'OOM in the CUDA launch of the tiled kernel';
const NOTES = [OOM, 'sorting with fewer comparisons beat the baseline', 'the dataset split was reshuffled with a new seed', 'plotted the speedup on a log axis'];

describe('vectors beside passages', () => {
  test('each added passage gets the model\'s vector of its body, and a paraphrase finds what BM25 cannot', async () => {
    const client = serve();
    const agent = await client.ensureAgent('a');
    const added = await client.addPassages(agent, NOTES.map((text) => ({ text, tags: ['node:n1'], metadata: { kind: 'node_scope' } })));
    const vectors = storedVectors(added.map((p) => p.id));
    expect(vectors.size).toBe(NOTES.length);
    const oom = vectors.get(added[0]?.id ?? '');
    expect(oom?.model).toBe('scripted-embed');
    // the body is embedded, not the metadata that travels after it
    const want = scriptedEmbedding(OOM);
    const got = unpackVector(oom?.vector ?? new Uint8Array());
    // stored quantized, one byte a dimension: within 1% of each value
    want.forEach((x, i) => expect(got[i]).toBeCloseTo(x, 2));

    const query = 'the GPU ran out of RAM';
    const hybrid = await client.searchPassages(agent, query, { tags: ['node:n1'], topK: 2 });
    expect(hybrid[0]?.text).toBe(OOM);
    expect(hybrid[0]?.score).toBeGreaterThan(hybrid[1]?.score ?? 0);
    await stopAll();
    const bm25 = await serve(null).searchPassages(agent, query, { tags: ['node:n1'], topK: 2 });
    expect(bm25).toEqual([]);
  });

  test('a search answers in Letta\'s shape, the query embedded once', async () => {
    const client = serve();
    const agent = await client.ensureAgent('a');
    await client.addPassages(agent, NOTES.map((text) => ({ text, tags: [], metadata: {} })));
    const before = embedRequests().length;
    const res = await fetch(`${client.baseUrl}/v1/agents/${agent}/archival-memory/search?query=${encodeURIComponent('memory exhausted on the device')}&top_k=3`);
    const body = (await res.json()) as { results: Record<string, unknown>[]; count: number };
    expect(body.count).toBe(body.results.length);
    expect(Object.keys(body.results[0] ?? {}).sort()).toEqual(['content', 'id', 'score', 'tags', 'timestamp']);
    expect(body.results[0]?.content).toBe(OOM);
    expect(embedRequests().length - before).toBe(1);
  });

  test('vectors survive a restart: the passages are not embedded again', async () => {
    const client = serve();
    const agent = await client.ensureAgent('a');
    await client.addPassages(agent, NOTES.map((text) => ({ text, tags: [], metadata: {} })));
    await stopAll();
    const before = embedRequests().length;
    const again = serve();
    expect(texts(await again.searchPassages(agent, 'allocation failure on the accelerator', { topK: 1 }))).toEqual([OOM]);
    // only the query
    expect(embedRequests().length - before).toBe(1);
  });

  test('an agent created with its own embedding handle uses it on a server without one', async () => {
    const bare = serve(null);
    const own = new MemoryClient({ baseUrl: bare.baseUrl, timeoutMs: 10_000, embedding: 'localllm/scripted-embed' });
    const agent = await own.ensureAgent('own');
    const plain = await bare.ensureAgent('plain');
    for (const id of [agent, plain]) await bare.addPassages(id, NOTES.map((text) => ({ text, tags: [], metadata: {} })));
    expect(texts(await bare.searchPassages(agent, 'the GPU ran out of RAM', { topK: 1 }))).toEqual([OOM]);
    expect(await bare.searchPassages(plain, 'the GPU ran out of RAM', { topK: 1 })).toEqual([]);
  });

  test('the client sends no embedding handle for the default setting, so the server\'s own applies', async () => {
    const client = serve();
    await new MemoryClient({ baseUrl: client.baseUrl, timeoutMs: 10_000, embedding: 'default' }).ensureAgent('d');
    const db = new Database(join(dir, 'db', DATABASE_FILE), { readonly: true });
    expect(db.query('SELECT count(*) AS n FROM agent_embeddings').get()).toEqual({ n: 0 });
    db.close();
  });

  test('embedding costs go to the ledger of the agent\'s checkpoint', async () => {
    const client = serve();
    const ckpt = join(dir, 'ckpt');
    mkdirSync(ckpt);
    const agent = await client.ensureAgent('a');
    await client.setBlock(agent, CHECKPOINT_BLOCK, ckpt);
    await client.addPassages(agent, NOTES.map((text) => ({ text, tags: [], metadata: {} })));
    await client.searchPassages(agent, 'GPU memory', { topK: 1 });
    const lines = readFileSync(join(ckpt, 'cost_trace.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.component, l.op, l.model])).toEqual([
      ['memory', 'insert', 'scripted-embed'],
      ['memory', 'search', 'scripted-embed'],
    ]);
    expect(lines[0]?.embedding_tokens).toBeGreaterThan(0);
  });
});

describe('scope', () => {
  test('a sibling\'s passage never comes up, even as the nearest vector and the best BM25 match', async () => {
    const client = serve();
    const agent = await client.ensureAgent('a');
    const query = 'kernel out of memory on the GPU';
    await client.addPassages(agent, [
      { text: query, tags: ['node:sibling'], metadata: {} },
      { text: 'the tiled kernel allocation exhausted VRAM', tags: ['node:sibling'], metadata: {} },
      { text: 'the parent kernel used a plain loop', tags: ['node:parent'], metadata: {} },
      { text: 'plotted the GPU speedup on a log axis', tags: ['node:root', 'node:parent'], metadata: {} },
    ]);
    for (const topK of [1, 10, 200]) {
      const found = await client.searchPassages(agent, query, { tags: ['node:root', 'node:parent'], topK });
      expect(found.length).toBeGreaterThan(0);
      for (const p of found) expect(p.tags).not.toContain('node:sibling');
    }
    const all = await fetch(`${client.baseUrl}/v1/agents/${agent}/archival-memory/search?query=${encodeURIComponent(query)}&tags=node:root&tags=node:parent&tag_match_mode=all`).then((r) => r.json() as Promise<{ results: { content: string }[] }>);
    expect(all.results.map((r) => r.content)).toEqual(['plotted the GPU speedup on a log axis']);
  });

  test('another agent\'s passages never come up', async () => {
    const client = serve();
    const mine = await client.ensureAgent('mine');
    const other = await client.ensureAgent('other');
    await client.addPassages(other, [{ text: OOM, tags: [], metadata: {} }]);
    await client.addPassages(mine, [{ text: 'the device was slow', tags: [], metadata: {} }]);
    expect(texts(await client.searchPassages(mine, OOM, { topK: 10 }))).toEqual(['the device was slow']);
  });
});

describe('without a working model', () => {
  test('a model that never answers: the add is answered within the client\'s wait, kept without a vector, and the model is not asked again at once', async () => {
    let asked = 0;
    const hung = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: () => {
        asked++;
        return new Promise<Response>(() => {});
      },
    });
    try {
      const memory = serve('scripted-embed', { LOCALLLM_HOST: `127.0.0.1:${hung.port}` });
      const agent = await memory.ensureAgent('hung');
      // the client gives up after 10 s: an answer at all means the server did not wait on the model that long
      const added = await memory.addPassages(agent, [{ text: 'OOM in the CUDA launch', tags: ['node:a'], metadata: {} }]);
      expect(added).toHaveLength(1);
      expect(asked).toBe(1);
      const found = await memory.searchPassages(agent, 'cuda', { tags: ['node:a'], topK: 5 });
      expect(found.map((p) => p.text)).toEqual(['OOM in the CUDA launch']);
      // within its cool-down the hung model is not asked again: the search did not wait on it
      expect(asked).toBe(1);
      expect(storedVectors([added[0]?.id ?? '']).size).toBe(0);
    } finally {
      hung.stop(true);
    }
  }, 30_000);

  test('no model: BM25 alone, said once at start, and the health answer says so', async () => {
    let client: MemoryClient | null = null;
    const lines = await told(async () => {
      client = serve(null);
    });
    expect(lines.filter((l) => l.includes('no embedding model'))).toHaveLength(1);
    const c = client as unknown as MemoryClient;
    const health = (await fetch(`${c.baseUrl}/v1/health/`).then((r) => r.json())) as Record<string, unknown>;
    expect(health).toMatchObject({ server: 'svc', embedding: null, search: 'bm25' });
    const agent = await c.ensureAgent('a');
    await c.addPassages(agent, NOTES.map((text) => ({ text, tags: [], metadata: {} })));
    const searchLines = await told(() => c.searchPassages(agent, 'kernel launch', { topK: 5 }));
    expect(searchLines).toEqual([]);
    expect(models.requests).toEqual([]);
    expect(storedVectors((await c.listPassages(agent)).map((p) => p.id)).size).toBe(0);
  });

  test('a model that fails: passages are kept without vectors, searches rank by BM25, one warning; later searches fill the scope', async () => {
    const client = serve();
    const agent = await client.ensureAgent('a');
    const health = (await fetch(`${client.baseUrl}/v1/health/`).then((r) => r.json())) as Record<string, unknown>;
    expect(health).toMatchObject({ embedding: 'scripted-embed', search: 'hybrid' });
    // the add, then two searches, each one request without retries
    models.failEmbeddings({ status: 500 }, { status: 500 }, { status: 500 });
    let added: { id: string }[] = [];
    const lines = await told(async () => {
      added = await client.addPassages(agent, NOTES.map((text) => ({ text, tags: ['node:n'], metadata: {} })));
      for (let i = 0; i < 2; i++) expect(texts(await client.searchPassages(agent, 'kernel launch', { tags: ['node:n'], topK: 5 }))).toEqual([OOM]);
    });
    expect(added).toHaveLength(NOTES.length);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('embedding model scripted-embed failed');
    expect(lines[0]).toContain('BM25');
    expect(storedVectors(added.map((p) => p.id)).size).toBe(0);
    // the model is back: this search embeds the query and the scope's passages, and finds by meaning
    const quiet = await told(async () => {
      expect(texts(await client.searchPassages(agent, 'the GPU ran out of RAM', { tags: ['node:n'], topK: 1 }))).toEqual([OOM]);
    });
    expect(quiet).toEqual([]);
    expect(storedVectors(added.map((p) => p.id)).size).toBe(NOTES.length);
  });

  test('a batch the model fails loses only itself: the batch before it keeps its vectors, the ones after wait for a fill', async () => {
    const client = serve();
    const agent = await client.ensureAgent('a');
    // 150 passages are three model batches (64, 64, 22): the first answers, the second fails
    models.failEmbeddings(null, { status: 500 });
    const many = Array.from({ length: 150 }, (_, i) => ({ text: `note ${i}: ${NOTES[i % NOTES.length]}`, tags: ['node:n'], metadata: {} }));
    const before = embedRequests().length;
    const added = await client.addPassages(agent, many);
    expect(embedRequests().length - before).toBe(2);
    const kept = storedVectors(added.map((p) => p.id));
    expect([...kept.keys()].sort()).toEqual(added.slice(0, 64).map((p) => p.id).sort());
    expect([...kept.values()].every((v) => v.model === 'scripted-embed' && v.vector.byteLength === 4 + scriptedEmbedding('x').length)).toBe(true);
  });

  test('a vector of the right model but another length (the model behind the name changed) counts as missing and is filled by a search', async () => {
    const client = serve();
    const agent = await client.ensureAgent('a');
    const added = await client.addPassages(agent, NOTES.map((text) => ({ text, tags: ['node:n'], metadata: {} })));
    const store = MemoryStore.open(join(dir, 'db'));
    try {
      store.setVectors([{ id: added[0]?.id ?? '', model: 'scripted-embed', vector: [1, 0, 0] }]);
    } finally {
      store.close();
    }
    const before = embedRequests().length;
    expect(texts(await client.searchPassages(agent, 'the GPU ran out of RAM', { tags: ['node:n'], topK: 1 }))).toEqual([OOM]);
    // the query, then the one passage
    expect(embedRequests().length - before).toBe(2);
    expect(storedVectors([added[0]?.id ?? '']).get(added[0]?.id ?? '')?.vector.byteLength).toBe(4 + scriptedEmbedding('x').length);
  });

  test('a model server that is not there: BM25 with one warning', async () => {
    const client = serve('scripted-embed', { LOCALLLM_HOST: '127.0.0.1:9' });
    const agent = await client.ensureAgent('a');
    const lines = await told(async () => {
      await client.addPassages(agent, NOTES.map((text) => ({ text, tags: [], metadata: {} })));
      for (let i = 0; i < 3; i++) expect(texts(await client.searchPassages(agent, 'seed', { topK: 5 }))).toEqual([NOTES[2] as string]);
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('\n');
  });
});

describe('reindex', () => {
  test('fills the vectors passages lack, in batches with progress, and a second run embeds nothing', async () => {
    const bare = serve(null);
    const agent = await bare.ensureAgent('a');
    const many = Array.from({ length: 300 }, (_, i) => ({ text: `note ${i}: ${NOTES[i % NOTES.length]}`, tags: [], metadata: {} }));
    await bare.addPassages(agent, many);
    const skipped = await reindexAgents(bare, [{ id: agent, name: 'a' }], () => {});
    expect(skipped).toEqual({ agents: [{ agent: 'a', skipped: 'no embedding model: BM25 search only' }], embedded: 0 });
    await stopAll();

    const client = serve();
    const progress: { embedded: number; remaining: number }[] = [];
    const first = await reindexAgents(client, [{ id: agent, name: 'a' }], (p) => progress.push({ embedded: p.embedded, remaining: p.remaining }));
    expect(first).toEqual({ agents: [{ agent: 'a', model: 'scripted-embed', embedded: 300, remaining: 0 }], embedded: 300 });
    expect(progress).toEqual([
      { embedded: 256, remaining: 44 },
      { embedded: 44, remaining: 0 },
    ]);
    expect(storedVectors((await client.listPassages(agent)).map((p) => p.id)).size).toBe(300);
    const requests = embedRequests().length;
    const second = await reindexAgents(client, [{ id: agent, name: 'a' }], () => {
      throw new Error('no progress expected');
    });
    expect(second.embedded).toBe(0);
    expect(embedRequests().length).toBe(requests);
  });

  test('a vector of the model but of another length (the model behind the name changed) is embedded again', async () => {
    const client = serve();
    const agent = await client.ensureAgent('a');
    const added = await client.addPassages(agent, NOTES.map((text) => ({ text, tags: [], metadata: {} })));
    const store = MemoryStore.open(join(dir, 'db'));
    try {
      store.setVectors([{ id: added[1]?.id ?? '', model: 'scripted-embed', vector: [1, 0, 0] }]);
    } finally {
      store.close();
    }
    const done = await reindexAgents(client, [{ id: agent, name: 'a' }], () => {});
    expect(done).toEqual({ agents: [{ agent: 'a', model: 'scripted-embed', embedded: 1, remaining: 0 }], embedded: 1 });
    expect(storedVectors([added[1]?.id ?? '']).get(added[1]?.id ?? '')?.vector.byteLength).toBe(4 + scriptedEmbedding('x').length);
  });

  test('a model that fails stops the reindex with its error; what was stored stays', async () => {
    const client = serve();
    const agent = await client.ensureAgent('a');
    models.failEmbeddings({ status: 500 });
    await client.addPassages(agent, [{ text: OOM, tags: [], metadata: {} }]);
    models.failEmbeddings({ status: 500 });
    const err = await reindexAgents(client, [{ id: agent, name: 'a' }], () => {}).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toContain('503');
    expect(err?.message).toContain('scripted-embed');
    expect((await client.listPassages(agent)).length).toBe(1);
  });
});

describe('backup and restore', () => {
  const backupLines = (ckpt: string) =>
    gunzipSync(readFileSync(join(ckpt, BACKUP_FILE)))
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  test('the backup carries each passage\'s vector; a restore into an empty server keeps them without embedding again', async () => {
    const ckpt = makeCheckpoint(dir);
    const client = serve();
    const agent = await ensureCheckpointAgent(client, ckpt);
    const added = await client.addPassages(agent, NOTES.map((text) => ({ text, tags: ['node:n1'], metadata: { node_id: 'n1', kind: 'node_scope', ts: 1, metadata: {} } })));
    expect((await backupCheckpointMemory(client, ckpt)).entries).toBe(NOTES.length);
    const stored = storedVectors(added.map((p) => p.id));
    const lines = backupLines(ckpt).filter((l) => l.kind !== 'core_seed');
    expect(lines.map((l) => l.vector)).toEqual(added.map((p) => ({ model: 'scripted-embed', data: vectorText(stored.get(p.id)?.vector ?? new Uint8Array()) })));
    await stopAll();

    const fresh = serve('scripted-embed', {}, 'fresh');
    const before = embedRequests().length;
    const report = await restoreCheckpointMemory(fresh, ckpt);
    expect(report.added).toBe(NOTES.length);
    expect(embedRequests().length).toBe(before);
    const restored = await fresh.listPassages(report.agent_id, { vectors: true });
    expect(restored.map((p) => p.vector as unknown)).toEqual(lines.map((l) => l.vector));
    expect(texts(await fresh.searchPassages(report.agent_id, 'the GPU ran out of RAM', { tags: ['node:n1'], topK: 1 }))).toEqual([OOM]);
  });

  test('a backup without vectors (an older one, or Letta\'s) restores, and its passages are embedded as they are added', async () => {
    const ckpt = makeCheckpoint(dir);
    await writeBackupFile(
      join(ckpt, BACKUP_FILE),
      (async function* () {
        for (const text of NOTES) yield { kind: 'node_scope', node_id: 'n1', text, metadata: {}, ts: 1 };
      })(),
    );
    const client = serve();
    const report = await restoreCheckpointMemory(client, ckpt);
    expect(report.added).toBe(NOTES.length);
    const restored = await client.listPassages(report.agent_id, { vectors: true });
    expect(restored.every((p) => p.vector?.model === 'scripted-embed')).toBe(true);
  });

  test('a vector that is not base64 of Float32 values is refused, and nothing of the batch is stored', async () => {
    const client = serve();
    const agent = await client.ensureAgent('a');
    for (const data of ['not base64!', 'AAA=', Buffer.from(new Float32Array([Number.NaN]).buffer).toString('base64')]) {
      const res = await fetch(`${client.baseUrl}/v1/agents/${agent}/archival-memory`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ passages: [{ text: 'fine' }, { text: 'bad', vector: { model: 'm', data } }] }),
      });
      expect(res.status).toBe(422);
      expect(((await res.json()) as { detail: string }).detail).toContain('passages[1].vector.data');
    }
    expect(await client.listPassages(agent)).toEqual([]);
  });
});
