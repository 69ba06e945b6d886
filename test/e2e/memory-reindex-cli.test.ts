import { afterEach, beforeEach, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureCheckpointAgent } from '../../src/memory/checkpoint-agent.ts';
import { MemoryClient } from '../../src/memory/client.ts';
import { type MemoryServer, startMemoryServer } from '../../src/memory/server.ts';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { type ModelServer, startModelServer } from '../support/model-server.ts';
import { removeDir, svc, tempDir } from '../support/svc.ts';
import { deadUrl } from '../unit/memory/backup-server.ts';

let dir: string;
let ckpt: string;
let models: ModelServer;
let server: MemoryServer | null = null;
beforeEach(() => {
  dir = tempDir();
  const root = join(dir, 'workspace', 'checkpoints');
  mkdirSync(root, { recursive: true });
  ckpt = writeCheckpoint(root, { runId: '20261101120000_reindex', nodes: 3 });
  models = startModelServer();
});
afterEach(async () => {
  await server?.stop();
  server = null;
  models.stop();
  removeDir(dir);
});

/** The memory server in this process on the test's database, with (or without) the scripted embedding model. */
function serve(model: string | null): MemoryClient {
  const env = { HOME: dir, SVC_BACKEND: 'localllm', LOCALLLM_HOST: models.url.replace('http://', ''), SVC_LLM_MAX_RETRIES: '0', ...(model ? { MEMBACKEND_EMBEDDING_CONFIG: model } : {}) };
  server = startMemoryServer({ port: 0, host: '127.0.0.1', dataDir: join(dir, 'db'), env });
  return new MemoryClient({ baseUrl: server.url, timeoutMs: 10_000 });
}

const reindex = (url: string, args: string[] = ['--checkpoint', ckpt]) => svc(['memory', 'reindex', ...args], { cwd: dir, env: { MEMBACKEND_BASE_URL: url } });

test('reindex embeds what a server without a model stored, with progress; a second run embeds nothing', async () => {
  const bare = serve(null);
  const agent = await ensureCheckpointAgent(bare, ckpt);
  await bare.addPassages(agent, Array.from({ length: 300 }, (_, i) => ({ text: `note ${i} on the tiled kernel`, tags: ['node:n1'], metadata: {} })));
  const skipped = await reindex(bare.baseUrl);
  expect(skipped).toMatchObject({ code: 0, stderr: '' });
  expect(skipped.stdout).toContain('skipped (no embedding model: BM25 search only)');
  await server?.stop();

  const client = serve('scripted-embed');
  const first = await reindex(client.baseUrl);
  expect(first).toMatchObject({ code: 0, stderr: '' });
  const lines = first.stdout.trim().split('\n');
  expect(lines.slice(0, 2).map((l) => l.replace(/^\S+: /, ''))).toEqual(['256 embedded with scripted-embed, 44 to go', '44 embedded with scripted-embed, 0 to go']);
  expect(lines.at(-1)).toBe('reindexed 1 agent(s): 300 passage(s) embedded');
  const again = await reindex(client.baseUrl);
  expect(again).toMatchObject({ code: 0, stderr: '', stdout: 'reindexed 1 agent(s): 0 passage(s) embedded\n' });
  expect((await client.listPassages(agent, { vectors: true })).every((p) => p.vector?.model === 'scripted-embed')).toBe(true);
});

test('without a checkpoint every agent of the server is reindexed', async () => {
  const client = serve('scripted-embed');
  models.failEmbeddings({ status: 500 }, { status: 500 });
  for (const name of ['one', 'two']) await client.addPassages(await client.ensureAgent(name), [{ text: `${name} ran out of memory`, tags: [], metadata: {} }]);
  const r = await reindex(client.baseUrl, []);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(r.stdout).toContain('one: 1 embedded with scripted-embed, 0 to go');
  expect(r.stdout).toContain('two: 1 embedded with scripted-embed, 0 to go');
  expect(r.stdout).toEndWith('reindexed 2 agent(s): 2 passage(s) embedded\n');
});

test('a model that fails: one line naming it, exit 1', async () => {
  const client = serve('scripted-embed');
  const agent = await ensureCheckpointAgent(client, ckpt);
  models.failEmbeddings({ status: 500 }, { status: 500 });
  await client.addPassages(agent, [{ text: 'kept without a vector', tags: [], metadata: {} }]);
  const r = await reindex(client.baseUrl);
  expect(r.code).toBe(1);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toContain('503');
  expect(r.stderr).toContain('embedding model scripted-embed');
});

test('a checkpoint the server has no agent for, and a server that is down: one line each', async () => {
  const client = serve('scripted-embed');
  const none = await reindex(client.baseUrl);
  expect(none.code).toBe(2);
  expect(none.stderr).toStartWith(`svc: the memory server has no agent for ${ckpt}`);
  const down = await reindex(await deadUrl());
  expect(down.code).toBe(1);
  expect(down.stderr).toContain('not reachable');
});
