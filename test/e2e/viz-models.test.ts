import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { freePort } from '../support/sshd.ts';
import { type ModelServer, startModelServer } from '../support/model-server.ts';
import { removeDir, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';

let dir: string;
let models: ModelServer;
let viz: Viz | null;

beforeEach(() => {
  dir = tempDir();
  models = startModelServer([], { models: ['qwen3:4b', 'llama3.2:1b'] });
  viz = null;
});
afterEach(async () => {
  await viz?.stop();
  models.stop();
  removeDir(dir);
});

const open = async (env: Record<string, string> = {}) => {
  viz = await startViz([dir], { cwd: dir, env: { LOCALLLM_HOST: `127.0.0.1:${models.port}`, ...env } });
  return viz;
};
const chats = () => models.requests.filter((r) => r.path === '/v1/chat/completions');

describe('models and the local daemon', () => {
  test('GET /api/models: the local daemon models, the routing of every role, hosted providers only with a key', async () => {
    const v = await open({ SVC_MODEL_BFTS: 'qwen3:4b' });
    const { status, body } = await v.get('/api/models');
    expect(status).toBe(200);
    expect(body.local).toMatchObject({ reachable: true, url: `http://127.0.0.1:${models.port}`, version: '0.12.0' });
    expect(body.local.models.map((m: { name: string }) => m.name)).toEqual(['qwen3:4b', 'llama3.2:1b']);
    expect(body.local.models[0]).toMatchObject({ size_bytes: 2_497_293_931, parameter_size: '4.0B', quantization: 'Q4_K_M' });
    expect(body.providers).toEqual([]);
    expect(body.roles.find((r: { role: string }) => r.role === 'bfts')).toMatchObject({ model: 'qwen3:4b', backend: 'localllm', why: expect.stringContaining('SVC_MODEL_BFTS') });
    await v.stop();
    const withKey = await open({ PROVIDERA_API_KEY: 'sk-test-not-shown' });
    const again = await withKey.get('/api/models');
    expect(again.body.providers).toHaveLength(1);
    expect(again.body.providers[0]).toMatchObject({ id: 'providera', key_variable: 'PROVIDERA_API_KEY', key_present: true, models_from: 'price table' });
    expect(again.body.providers[0].models).toContain('gpt-4o');
    expect(JSON.stringify(again.body)).not.toContain('sk-test-not-shown');
  });

  test('a user and password in the API base are never shown', async () => {
    const v = await open({ SVC_BACKEND: 'openai-compatible', LLM_API_BASE: 'http://alice:s3cret-pass@127.0.0.1:9/v1' });
    const { status, body } = await v.get('/api/models');
    expect(status).toBe(200);
    expect(JSON.stringify(body)).not.toContain('s3cret-pass');
    expect(body.openai_compatible.base_url).toBe('http://127.0.0.1:9/v1');
    expect(body.roles.find((r: { role: string }) => r.role === 'run').baseUrl).toBe('http://127.0.0.1:9/v1');
  });

  test('a daemon that is down is reported, not an error', async () => {
    const port = await freePort();
    const v = await open({ LOCALLLM_HOST: `127.0.0.1:${port}` });
    const { status, body } = await v.get('/api/models');
    expect(status).toBe(200);
    expect(body.local).toEqual({ url: `http://127.0.0.1:${port}`, reachable: false, error: expect.stringContaining('not reachable') });
    const proxied = await v.get('/api/localllm/api/tags');
    expect(proxied.status).toBe(502);
    expect(proxied.body).toEqual({ error: `local model daemon at http://127.0.0.1:${port}: not reachable` });
  });

  test('GET /api/localllm/<path> forwards to the daemon, and only to it', async () => {
    const v = await open();
    const tags = await v.get('/api/localllm/api/tags');
    expect(tags.status).toBe(200);
    expect(tags.body.models).toHaveLength(2);
    const missing = await v.get('/api/localllm/api/nothing?x=1');
    expect(missing.status).toBe(404);
    expect(models.requests.at(-1)?.path).toBe('/api/nothing');
    // a path that tries to name another host stays on the daemon
    await v.req('/api/localllm//evil.example/x');
    expect(models.requests.at(-1)?.path).toBe('/evil.example/x');
  });

  test('no path, encoding or query turns the proxy towards another host or port', async () => {
    const v = await open();
    const reached: string[] = [];
    const other = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (req) => (reached.push(req.url), new Response('other')) });
    try {
      const o = `127.0.0.1:${other.port}`;
      const tries = [`http://${o}/x`, `%2F%2F${o}/x`, `@${o}/x`, `%40${o}/x`, `%5C%5C${o}/x`, `..%2F..%2F${o}`, `x?url=http://${o}/`, `:${other.port}/x`];
      for (const path of tries) {
        const res = await v.req(`/api/localllm/${path}`);
        expect(await res.text()).not.toBe('other');
      }
      expect(reached).toEqual([]);
      expect(models.requests.length).toBe(tries.length);
      expect((await v.req('/api/localllm/api/tags', { method: 'POST', body: '{}' })).status).toBe(405);
      expect(models.requests.length).toBe(tries.length);
    } finally {
      other.stop(true);
    }
  });

  test('GET /api/localllm-resources: memory and disk per model, and an estimate for one not pulled yet', async () => {
    const v = await open();
    const { body } = await v.get('/api/localllm-resources');
    expect(body.machine.memory.available_bytes).toBeGreaterThan(0);
    expect(body.models[0]).toEqual({ model: 'qwen3:4b', source: 'listed', disk_bytes: 2_497_293_931, memory_needed_bytes: Math.round(2_497_293_931 * 1.2), fits_in_memory: true, fits_on_disk: true, loaded: true });
    const big = await v.get('/api/localllm-resources?model=llama3.1:405b');
    expect(big.body.models).toEqual([expect.objectContaining({ model: 'llama3.1:405b', source: 'estimated', disk_bytes: Math.round(405e9 * 0.5625) })]);
    expect(big.body.models[0].memory_needed_bytes).toBe(Math.round(405e9 * 0.5625 * 1.2));
    const unknown = await v.get('/api/localllm-resources?model=mystery');
    expect(unknown.body.models).toEqual([]);
  });
});

describe('model-assisted wizard helpers', () => {
  test('POST /api/chat-goal answers through the configured model and proposes the refined goal', async () => {
    const v = await open();
    models.push({ text: JSON.stringify({ reply: 'What baseline?', goal: '# Faster matmul\nMeasure GFLOP/s.' }) });
    const { status, body } = await v.post('/api/chat-goal', { goal: 'make matmul fast', messages: [{ role: 'user', content: 'on a laptop' }] });
    expect(status).toBe(200);
    expect(body).toEqual({ reply: 'What baseline?', goal: '# Faster matmul\nMeasure GFLOP/s.', model: 'qwen3:4b' });
    const sent = chats()[0]?.body as { model: string; messages: { role: string; content: string }[] };
    expect(sent.model).toBe('qwen3:4b');
    expect(sent.messages.at(-1)).toEqual({ role: 'user', content: 'on a laptop' });
  });

  test('an answer that is not JSON is sent back once with the reason, then reported as 502', async () => {
    const v = await open();
    models.push({ text: 'Sure! Here is my thought.' }, { text: JSON.stringify({ reply: 'ok', goal: 'g' }) });
    expect((await v.post('/api/chat-goal', { goal: 'x' })).body).toEqual({ reply: 'ok', goal: 'g', model: 'qwen3:4b' });
    const retry = chats()[1]?.body as { messages: { role: string; content: string }[] };
    expect(retry.messages.at(-2)).toEqual({ role: 'assistant', content: 'Sure! Here is my thought.' });
    expect(retry.messages.at(-1)?.content).toMatch(/^Your answer was not valid JSON/);
    models.push({ text: 'no' }, { text: '{"reply": 3}' });
    const failed = await v.post('/api/chat-goal', { goal: 'x' });
    expect(failed.status).toBe(502);
    expect(failed.body.error).toMatch(/^the idea model qwen3:4b gave no acceptable JSON in 2 attempts: the last answer was "reply" must be a non-empty string/);
  });

  test('POST /api/config/generate returns a checked workflow; keys it may not set are sent back', async () => {
    const v = await open();
    models.push({ text: JSON.stringify({ checkpoint: { dir: '/etc' } }) }, { text: JSON.stringify({ resources: { cpus: 8, executor: 'slurm' }, bfts: { max_nodes: 12 } }) });
    const { status, body } = await v.post('/api/config/generate', { answers: { compute: 'a Slurm cluster', budget: 'small' } });
    expect(status).toBe(200);
    expect(body.yaml).toContain('executor: slurm');
    expect(body.workflow.resources).toEqual({ cpus: 8, timeout_minutes: 60, executor: 'slurm' });
    expect(body.workflow.bfts.max_nodes).toBe(12);
    const retry = chats()[1]?.body as { messages: { content: string }[] };
    expect(retry.messages.at(-1)?.content).toContain("key 'checkpoint' may not be set");
    models.push({ text: JSON.stringify({ resources: { executor: 'kubernetes' } }) }, { text: JSON.stringify({ resources: { executor: 'mainframe' } }) });
    const invalid = await v.post('/api/config/generate', { answers: { compute: 'x' } });
    expect(invalid.status).toBe(502);
    expect(invalid.body.error).toContain('resources.executor: must be one of slurm, local, pbs, lsf');
  });

  test('bad requests and an unreachable or unconfigured model give one clear line', async () => {
    const v = await open();
    expect((await v.post('/api/config/generate', { answers: {} })).body).toEqual({ error: 'answers is empty (send the wizard answers as {answers: {...}})' });
    expect(await v.post('/api/config/generate', { answers: 'a Slurm cluster' })).toEqual({ status: 400, body: { error: 'answers must be an object of question: answer (send the wizard answers as {answers: {...}})' } });
    expect((await v.post('/api/chat-goal', {})).status).toBe(400);
    const turns = Array.from({ length: 41 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i}` }));
    expect(await v.post('/api/chat-goal', { goal: 'x', messages: turns })).toEqual({ status: 400, body: { error: 'the conversation has 41 turns; at most 40 are sent (start a new conversation with the current goal)' } });
    const big = await v.post('/api/config/generate', { answers: { notes: 'x'.repeat(70_000) } });
    expect(big.status).toBe(400);
    expect(big.body.error).toMatch(/^answers are \d+ bytes; at most 65536$/);
    expect((await v.req('/api/chat-goal', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"goal": ' })).status).toBe(400);
    expect(chats()).toHaveLength(0);
    await v.stop();
    const port = await freePort();
    const down = await open({ LOCALLLM_HOST: `127.0.0.1:${port}` });
    const unreachable = await down.post('/api/chat-goal', { goal: 'x' });
    expect(unreachable).toEqual({ status: 503, body: { error: `no model backend reachable at http://127.0.0.1:${port} (localllm; LOCALLLM_HOST) (start the local model daemon, or set LOCALLLM_HOST, or SVC_BACKEND with a provider key)` } });
    await down.stop();
    const noKey = await open({ SVC_BACKEND: 'providera', SVC_MODEL: 'gpt-4o-mini' });
    const refused = await noKey.post('/api/chat-goal', { goal: 'x' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^PROVIDERA_API_KEY is not set/);
  });
});
