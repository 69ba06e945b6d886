import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ensureCheckpointAgent } from '../../src/memory/checkpoint-agent.ts';
import { agentNameFor } from '../../src/memory/client.ts';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { removeDir, SVC, svc, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';
import { deadUrl, type LiveMemory, startLiveMemory } from '../unit/memory/backup-server.ts';

let dir: string;
let ws: string;
let root: string;
let url: string;
let env: Record<string, string>;
let viz: Viz | null;
let mem: LiveMemory | null;
const children: Bun.Subprocess[] = [];
beforeEach(async () => {
  dir = tempDir();
  ws = join(dir, 'workspace');
  root = join(ws, 'checkpoints');
  mkdirSync(root, { recursive: true });
  url = await deadUrl();
  env = { MEMBACKEND_BASE_URL: url, SVC_MEMORY_LETTA_TIMEOUT_S: '5' };
  viz = null;
  mem = null;
});
afterEach(async () => {
  await viz?.stop();
  await mem?.server.stop();
  for (const c of children.splice(0)) {
    // started in a session of its own: the whole group goes (the stand-in's server too)
    process.kill(-c.pid, 'SIGKILL');
    await c.exited;
  }
  // a server the dashboard started outlives it; stop-local stops it by its pid file
  await svc(['memory', 'stop-local'], { cwd: dir, env });
  removeDir(dir);
});

async function start(extra: Record<string, string> = {}): Promise<Viz> {
  viz = await startViz([ws], { cwd: dir, env: { ...env, ...extra } });
  return viz;
}

/** The embedded server in this process, at the URL the dashboard is told about. */
function liveMemory(): LiveMemory {
  mem = startLiveMemory(join(dir, 'db'));
  env.MEMBACKEND_BASE_URL = mem.url;
  url = mem.url;
  return mem;
}

const A = '20261101090000_alpha';

describe('GET /api/memory/health', () => {
  test('backend down: 503 with one line naming the URL', async () => {
    const v = await start();
    const r = await v.get('/api/memory/health');
    expect(r.status).toBe(503);
    expect(r.body.error).toStartWith(`memory server ${url} (MEMBACKEND_BASE_URL): not reachable`);
  });

  test('backend up: its version and kind', async () => {
    liveMemory();
    const v = await start();
    expect(await v.get('/api/memory/health')).toEqual({ status: 200, body: { url, ok: true, version: '0.1.0', server: 'svc' } });
  });
});

describe('the local server from the dashboard', () => {
  test('start-local, detect, start-local again, restart, stop-local', async () => {
    const v = await start();
    const started = await v.post('/api/memory/start-local', {});
    expect(started).toMatchObject({ status: 200, body: { started: true, url, path: 'auto', version: '0.1.0' } });
    const detected = (await v.get('/api/memory/detect')).body;
    expect(detected).toMatchObject({ url, reachable: true, version: '0.1.0' });
    expect(detected.deployments).toContainEqual({ path: 'auto', found_by: 'pid file', id: String(started.body.pid), url, managed: true, reachable: true, version: '0.1.0' });
    expect(Object.keys(detected.probes).sort()).toEqual(['apptainer', 'docker', 'processes', 'singularity']);
    expect((await v.post('/api/memory/start-local', { path: 'auto' })).body).toMatchObject({ started: false, pid: started.body.pid });
    const restarted = await v.post('/api/memory/restart');
    expect(restarted.body).toMatchObject({ started: true, path: 'auto' });
    expect(restarted.body.pid).not.toBe(started.body.pid);
    expect(await v.post('/api/memory/stop-local')).toEqual({ status: 200, body: { stopped: true, message: `stopped the auto memory server at ${url}`, warnings: [] } });
    const after = (await v.get('/api/memory/detect')).body;
    expect(after.reachable).toBe(false);
    expect(after.deployments.filter((d: { found_by: string }) => d.found_by === 'pid file')).toEqual([]);
    expect((await v.post('/api/memory/stop-local')).body.stopped).toBe(false);
  });

  test('a bad body: 400 naming the choices; a runtime that is missing: 503 in one line', async () => {
    const v = await start({ PATH: join(dir, 'no-bin') });
    expect(await v.post('/api/memory/start-local', { path: 'podman' })).toEqual({ status: 400, body: { error: 'path must be one of auto, docker, singularity, pip, got "podman"' } });
    expect((await v.post('/api/memory/restart', ['auto'])).status).toBe(400);
    const malformed = await v.req('/api/memory/start-local', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"path":' });
    expect(malformed.status).toBe(400);
    expect(await v.post('/api/memory/start-local', { path: 'docker' })).toEqual({ status: 503, body: { error: 'docker is not installed (no docker on PATH) (install Docker, or use --path auto for the embedded server)' } });
    expect(existsSync(join(ws, '.svc', 'memory', 'local-server.json'))).toBe(false);
  });

  test.skipIf(Bun.which('docker') === null)('detect reports a docker daemon that does not answer', async () => {
    const v = await start({ DOCKER_HOST: `unix://${join(dir, 'none.sock')}` });
    expect((await v.get('/api/memory/detect')).body.probes.docker).toStartWith('unreachable: ');
  });

  test('detect finds a letta server started outside svc, and says it is not managed', async () => {
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'letta'), `#!/bin/sh\n"${SVC}" memory serve --port "$5" --data-dir "${join(dir, 'letta-data')}"\n`);
    chmodSync(join(bin, 'letta'), 0o755);
    const port = url.split(':')[2] ?? '';
    const letta = Bun.spawn(['sh', join(bin, 'letta'), 'server', '--host', '127.0.0.1', '--port', port], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    children.push(letta);
    const reader = (letta.stderr as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    const v = await start();
    const { deployments } = (await v.get('/api/memory/detect')).body;
    expect(deployments).toContainEqual({ path: 'pip', found_by: 'process list', id: String(letta.pid), url: `http://127.0.0.1:${port}`, managed: false, reachable: true, version: '0.1.0' });
  });
});

describe('GET /api/checkpoint/:id/memory', () => {
  const BACKUP = [{ kind: 'node_scope', node_id: 'node_a', text: 'from the file', metadata: {}, ts: 1 }];

  test('the live passages of the checkpoint\'s agent, metadata decoded; ?node_id= includes react steps naming the node', async () => {
    const m = liveMemory();
    const a = writeCheckpoint(root, { runId: A });
    writeFileSync(join(a, 'memory_backup.jsonl.gz'), gzipSync(`${JSON.stringify(BACKUP[0])}\n`));
    const agent = await ensureCheckpointAgent(m.client, a);
    // stored the way the memory skill stores entries: {node_id, kind, ts, metadata}
    await m.client.addPassages(agent, [
      { text: 'live note', tags: ['node:node_a', 'kind:node_scope'], metadata: { node_id: 'node_a', kind: 'node_scope', ts: 5, metadata: { gflops: 9.8 } } },
      { text: 'step', tags: ['kind:react_step'], metadata: { node_id: 'node_a', kind: 'react_step', ts: 6, metadata: {} } },
      { text: 'other node', tags: ['node:node_b', 'kind:reflection'], metadata: { node_id: 'node_b', kind: 'reflection', ts: 7, metadata: { confidence: 0.5 } } },
    ]);
    const v = await start();
    const all = await v.get(`/api/checkpoint/${A}/memory`);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ source: 'backend', skipped: 0, problems: [], truncated: false, backend: { url, reachable: true, agent_id: agent } });
    expect(all.body.entries.map((e: { kind: string; node_id?: string; text: string }) => [e.kind, e.node_id, e.text])).toEqual([
      ['node_scope', 'node_a', 'live note'],
      ['react_step', undefined, 'step'],
      ['reflection', 'node_b', 'other node'],
    ]);
    expect(all.body.entries[0]).toMatchObject({ metadata: { gflops: 9.8 }, ts: 5 });
    expect(all.body.entries[1]).toMatchObject({ metadata: { node_id: 'node_a' }, ts: 6 });
    const one = (await v.get(`/api/checkpoint/${A}/memory?node_id=node_a`)).body;
    expect(one.entries.map((e: { text: string }) => e.text)).toEqual(['live note', 'step']);
  });

  test('no agent for the checkpoint: the backup file, and the backend said to be reachable', async () => {
    liveMemory();
    const a = writeCheckpoint(root, { runId: A });
    writeFileSync(join(a, 'memory_backup.jsonl.gz'), gzipSync(`${JSON.stringify(BACKUP[0])}\n`));
    const v = await start();
    expect((await v.get(`/api/checkpoint/${A}/memory`)).body).toEqual({ source: 'memory_backup.jsonl.gz', entries: BACKUP, skipped: 0, problems: [], truncated: false, backend: { url, reachable: true, agent_id: null } });
  });

  test('backend down: the backup file, with the reason', async () => {
    const a = writeCheckpoint(root, { runId: A });
    writeFileSync(join(a, 'memory_backup.jsonl.gz'), gzipSync(`${JSON.stringify(BACKUP[0])}\n`));
    const v = await start();
    const body = (await v.get(`/api/checkpoint/${A}/memory`)).body;
    expect(body).toMatchObject({ source: 'memory_backup.jsonl.gz', entries: BACKUP, backend: { url, reachable: false, agent_id: null } });
    expect(body.backend.error).toStartWith(`memory server ${url} (MEMBACKEND_BASE_URL): not reachable`);
  });
});

describe('POST /api/delete-checkpoint and the memory agent', () => {
  test('the checkpoint\'s agent goes with it; other agents stay', async () => {
    const m = liveMemory();
    const a = writeCheckpoint(root, { runId: A });
    const b = writeCheckpoint(root, { runId: '20261102090000_beta' });
    await ensureCheckpointAgent(m.client, a);
    await ensureCheckpointAgent(m.client, b);
    const v = await start();
    const r = await v.post('/api/delete-checkpoint', { id: A });
    expect(r).toEqual({ status: 200, body: { ok: true, deleted: A, removed: [a], memory: { agent: agentNameFor(a), deleted: true } } });
    expect((await m.client.listAgents()).map((x) => x.name)).toEqual([agentNameFor(b)]);
  });

  test('a backend that is down does not stop the delete: the answer carries a warning', async () => {
    const a = writeCheckpoint(root, { runId: A });
    const name = agentNameFor(a);
    const v = await start();
    const r = await v.post('/api/delete-checkpoint', { id: A });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, deleted: A, memory: { agent: name, deleted: false } });
    expect(r.body.memory.warning).toStartWith(`memory agent ${name} was not deleted: memory server ${url} (MEMBACKEND_BASE_URL): not reachable`);
    expect(existsSync(a)).toBe(false);
  });
});
