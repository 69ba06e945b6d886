// The model backends the settings name: key present, endpoint answering its model list, each model
// the roles use listed. A local server speaks each provider's model-list protocol.
import { afterAll, describe, expect, test } from 'bun:test';
import { checkModels } from '../../../src/doctor/models.ts';
import { roleNeeded } from '../../../src/doctor/needs.ts';
import { startModelServer } from '../../support/model-server.ts';
import { closedPort, NO_PIPELINE, project, removeBoxes } from './helpers.ts';

const server = startModelServer([], { models: ['served-a', 'qwen3:4b'] });
afterAll(() => {
  server.stop();
  removeBoxes();
});

const byItem = (rows: Awaited<ReturnType<typeof checkModels>>, item: string) => rows.find((r) => r.item === item);

describe('checkModels', () => {
  test('an OpenAI-compatible server that lists the model: key, endpoint and model are ok', async () => {
    const { cfg, env } = project({ SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: 'served-a', LLM_API_KEY: 'sk-test' });
    const rows = await checkModels(cfg, env);
    expect(byItem(rows, 'openai-compatible key')).toMatchObject({ status: 'ok', detail: 'LLM_API_KEY is set', needed: true });
    expect(byItem(rows, 'openai-compatible endpoint')).toMatchObject({ status: 'ok', detail: `openai-compatible at ${server.url}/v1 answers: 2 models listed` });
    expect(byItem(rows, 'served-a')).toMatchObject({ status: 'ok', needed: true });
    expect(byItem(rows, 'served-a')?.detail).toContain('for run, idea, bfts');
    // the key went to the server as a bearer token, and no row shows it
    const asked = server.requests.filter((r) => r.path === '/v1/models').at(-1);
    expect(asked?.headers.authorization).toBe('Bearer sk-test');
    expect(JSON.stringify(rows)).not.toContain('sk-test');
  });

  test('a model the server does not list fails, naming the ones it does', async () => {
    const { cfg, env } = project({ SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: 'absent-model' });
    const row = byItem(await checkModels(cfg, env), 'absent-model');
    expect(row).toMatchObject({ status: 'fail', needed: true });
    expect(row?.detail).toBe(`not in the model list of openai-compatible at ${server.url}/v1; for run, idea, bfts, paper, eval, lineage, root_select`);
    expect(row?.fix).toContain('(served-a, qwen3:4b)');
  });

  test('an endpoint that refuses the connection fails with the fix', async () => {
    const base = `http://127.0.0.1:${closedPort()}/v1`;
    const { cfg, env } = project({ SVC_BACKEND: 'openai-compatible', LLM_API_BASE: base, SVC_MODEL: 'served-a' });
    const row = byItem(await checkModels(cfg, env), 'openai-compatible endpoint');
    expect(row).toMatchObject({ status: 'fail', detail: `${base}: not reachable`, needed: true });
    expect(row?.fix).toContain('LLM_API_BASE');
  });

  test('a hosted provider without its key fails and is not asked', async () => {
    const { cfg, env } = project({ SVC_BACKEND: 'providerb', SVC_MODEL: 'claude-x', LLM_API_BASE: `${server.url}/v1` });
    const rows = await checkModels(cfg, env);
    expect(byItem(rows, 'providerb key')).toMatchObject({ status: 'fail', detail: 'PROVIDERB_API_KEY is not set', needed: true });
    expect(byItem(rows, 'providerb key')?.fix).toContain('set PROVIDERB_API_KEY');
    expect(byItem(rows, 'providerb endpoint')?.status).toBe('skip');
  });

  test("providerb's model list is asked in its own protocol, with its key header", async () => {
    const { cfg, env } = project({ SVC_BACKEND: 'providerb', SVC_MODEL: 'served-a', LLM_API_BASE: `${server.url}/v1`, PROVIDERB_API_KEY: 'pb-key' });
    const rows = await checkModels(cfg, env);
    expect(byItem(rows, 'served-a')?.status).toBe('ok');
    const asked = server.requests.filter((r) => r.path === '/v1/models').at(-1);
    expect(asked?.headers['x-api-key']).toBe('pb-key');
    expect(asked?.headers['anthropic-version']).toBeDefined();
  });

  test('a key the provider refuses (401) fails naming the variable', async () => {
    const refusing = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => Response.json({ error: 'bad key' }, { status: 401 }) });
    try {
      const { cfg, env } = project({ SVC_BACKEND: 'providera', SVC_MODEL: 'gpt-x', LLM_API_BASE: `http://127.0.0.1:${refusing.port}/v1`, PROVIDERA_API_KEY: 'wrong' });
      const row = byItem(await checkModels(cfg, env), 'providera endpoint');
      expect(row).toMatchObject({ status: 'fail', detail: `http://127.0.0.1:${refusing.port}/v1 refused the key (401)`, fix: 'check PROVIDERA_API_KEY' });
    } finally {
      refusing.stop(true);
    }
  });

  test("the local daemon's model list: a pulled model is ok, another fails; a daemon that is not there fails", async () => {
    const here = project({ SVC_BACKEND: 'localllm', LOCALLLM_HOST: server.url, SVC_MODEL: 'qwen3:4b' });
    expect(byItem(await checkModels(here.cfg, here.env), 'qwen3:4b')).toMatchObject({ status: 'ok' });
    const missing = project({ SVC_BACKEND: 'localllm', LOCALLLM_HOST: server.url, SVC_MODEL: 'llama9:70b' });
    expect(byItem(await checkModels(missing.cfg, missing.env), 'llama9:70b')?.fix).toContain('pull llama9:70b into the local model daemon');
    const gone = project({ SVC_BACKEND: 'localllm', LOCALLLM_HOST: `127.0.0.1:${closedPort()}`, SVC_MODEL: 'qwen3:4b' });
    expect(byItem(await checkModels(gone.cfg, gone.env), 'localllm endpoint')).toMatchObject({ status: 'fail', fix: expect.stringContaining('LOCALLLM_HOST') });
  });

  test('a role whose stages are off does not make its backend needed', async () => {
    // the replication models default to a hosted model; with no reproduction stage they are not needed
    const { cfg, env } = project({ SVC_BACKEND: 'localllm', LOCALLLM_HOST: server.url, SVC_MODEL: 'qwen3:4b' }, NO_PIPELINE);
    const rows = await checkModels(cfg, env);
    expect(byItem(rows, 'providera key')).toMatchObject({ status: 'fail', needed: false });
    expect(byItem(rows, 'qwen3:4b')?.needed).toBe(true);
    const wf = cfg.workflow.workflow;
    expect([roleNeeded('run', wf), roleNeeded('paper', wf), roleNeeded('judge', wf), roleNeeded('lineage', wf)]).toEqual([true, false, false, false]);
  });

  test('an unknown backend is a failing row, not an exception', async () => {
    const { cfg, env } = project({ SVC_BACKEND: 'nosuch', SVC_MODEL: 'm' });
    const rows = await checkModels(cfg, env);
    expect(byItem(rows, 'run model')).toMatchObject({ status: 'fail', needed: true });
    expect(byItem(rows, 'run model')?.detail).toContain("unknown model backend 'nosuch'");
  });

  test("providerb's paged list is read to its end, and an alias of a listed dated id is listed", async () => {
    // more ids than one page of 1000 holds: the alias's dated id is on the second page
    const ids = [...Array.from({ length: 1000 }, (_, i) => `claude-old-${i}`), 'claude-x-20250101'];
    const paged = startModelServer([], { models: ids });
    try {
      const { cfg, env } = project({ SVC_BACKEND: 'providerb', SVC_MODEL: 'claude-x', LLM_API_BASE: `${paged.url}/v1`, PROVIDERB_API_KEY: 'k' });
      const rows = await checkModels(cfg, env);
      expect(byItem(rows, 'providerb endpoint')?.detail).toBe(`providerb at ${paged.url}/v1 answers: 1001 models listed`);
      expect(byItem(rows, 'claude-x')).toMatchObject({ status: 'ok', needed: true });
      const asked = paged.requests.filter((r) => r.path === '/v1/models');
      expect(asked).toHaveLength(2);
    } finally {
      paged.stop();
    }
  });

  test('a model providerb does not list is a warning: its API may still accept the name', async () => {
    const { cfg, env } = project({ SVC_BACKEND: 'providerb', SVC_MODEL: 'claude-x-latest', LLM_API_BASE: `${server.url}/v1`, PROVIDERB_API_KEY: 'k' });
    const row = byItem(await checkModels(cfg, env), 'claude-x-latest');
    expect(row).toMatchObject({ status: 'warn', needed: true });
    expect(row?.detail).toStartWith(`not in the model list of providerb at ${server.url}/v1 (providerb at ${server.url}/v1 may still accept it)`);
  });

  test("the local daemon's name without a tag is its :latest; another tag is not", async () => {
    const daemon = startModelServer([], { models: ['llama3:latest'] });
    try {
      const bare = project({ SVC_BACKEND: 'localllm', LOCALLLM_HOST: daemon.url, SVC_MODEL: 'llama3' });
      expect(byItem(await checkModels(bare.cfg, bare.env), 'llama3')).toMatchObject({ status: 'ok' });
      const other = project({ SVC_BACKEND: 'localllm', LOCALLLM_HOST: daemon.url, SVC_MODEL: 'llama3:8b' });
      expect(byItem(await checkModels(other.cfg, other.env), 'llama3:8b')).toMatchObject({ status: 'fail', needed: true });
    } finally {
      daemon.stop();
    }
  });

  test('credentials in LOCALLLM_HOST are in no row', async () => {
    const port = closedPort();
    const { cfg, env } = project({ SVC_BACKEND: 'localllm', LOCALLLM_HOST: `http://user:pass@127.0.0.1:${port}`, SVC_MODEL: 'qwen3:4b' });
    const rows = await checkModels(cfg, env);
    expect(byItem(rows, 'localllm endpoint')?.detail).toBe(`local model daemon at http://127.0.0.1:${port}: not reachable`);
    expect(JSON.stringify(rows)).not.toContain('pass');
  });

  test('one model on two backends: each row names its group, and no two rows share an item', async () => {
    const { cfg, env } = project({ SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: 'qwen3:4b', SVC_MODEL_PAPER: 'localllm/qwen3:4b', LOCALLLM_HOST: server.url });
    const rows = await checkModels(cfg, env);
    const items = rows.map((r) => r.item);
    expect(new Set(items).size).toBe(items.length);
    expect(byItem(rows, 'qwen3:4b on openai-compatible')).toMatchObject({ status: 'ok' });
    expect(byItem(rows, 'qwen3:4b on localllm')).toMatchObject({ status: 'ok' });
  });

  test('the embedding models the settings name are checked with the rest, never as needed', async () => {
    const { cfg, env } = project({ LOCALLLM_HOST: server.url.replace('http://', ''), SVC_MODEL: 'qwen3:4b', MEMBACKEND_EMBEDDING_CONFIG: 'served-a', SVC_IDEA_MA_REAL: '1', SVC_IDEA_MA_EMBED_MODEL: 'localllm/absent-embedder' });
    const rows = await checkModels(cfg, env);
    expect(byItem(rows, 'served-a')).toMatchObject({ status: 'ok', needed: false });
    expect(byItem(rows, 'served-a')?.detail).toContain('for memory embeddings');
    expect(byItem(rows, 'absent-embedder')).toMatchObject({ status: 'fail', needed: false });
    expect(byItem(rows, 'absent-embedder')?.detail).toContain('for idea engine embeddings');
    expect(byItem(rows, 'absent-embedder')?.fix).toContain('pull absent-embedder');
  });

  test("the idea engine's 'default' is its SPECTER2 model, checked like any other", async () => {
    const { cfg, env } = project({ LOCALLLM_HOST: server.url.replace('http://', ''), SVC_MODEL: 'qwen3:4b', SVC_IDEA_MA_REAL: '1', SVC_IDEA_MA_EMBED_MODEL: 'default' });
    const rows = await checkModels(cfg, env);
    expect(byItem(rows, 'allenai/specter2_base')).toMatchObject({ status: 'fail', needed: false });
  });

  test("no embedding rows for 'default', nor for the idea engine while it is off", async () => {
    const { cfg, env } = project({ LOCALLLM_HOST: server.url.replace('http://', ''), SVC_MODEL: 'qwen3:4b', MEMBACKEND_EMBEDDING_CONFIG: 'default', SVC_IDEA_MA_EMBED_MODEL: 'served-a' });
    const rows = await checkModels(cfg, env);
    expect(rows.some((r) => r.detail.includes('embeddings'))).toBe(false);
  });

  test('an embedding model on a backend without embeddings is a warning', async () => {
    const { cfg, env } = project({ LOCALLLM_HOST: server.url.replace('http://', ''), SVC_MODEL: 'qwen3:4b', MEMBACKEND_EMBEDDING_CONFIG: 'providerb/some-embedder', PROVIDERB_API_KEY: 'pb-key' });
    const rows = await checkModels(cfg, env);
    expect(byItem(rows, 'memory embeddings model')).toMatchObject({ status: 'warn', needed: false, detail: 'providerb has no embeddings API, so it cannot serve the embedding model some-embedder' });
    expect(byItem(rows, 'memory embeddings model')?.fix).toContain('(MEMBACKEND_EMBEDDING_CONFIG)');
  });
});
