// The dashboard server as a whole: how it starts, /state, and the rules every request follows
// (errors as {error}, CORS, the optional token, body limits, the access log).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { StateAlways, StateSnapshot } from '../../src/schema/state.ts';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { removeDir, svc, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';

const ALWAYS = ['running_pid', 'is_running', 'exit_code', 'running', 'pid', 'status_label'];

let dir: string;
let ws: string;
let ck: string;
let viz: Viz;

beforeAll(async () => {
  dir = tempDir();
  ws = join(dir, 'workspace');
  writeCheckpoint(join(ws, 'checkpoints'), { nodes: 5, runId: '20261101100000_older' });
  ck = writeCheckpoint(join(ws, 'checkpoints'), { nodes: 12, runId: '20261102100000_newer' });
  viz = await startViz([ws], { cwd: dir });
});

afterAll(async () => {
  await viz.stop();
  removeDir(dir);
});

describe('GET /state', () => {
  test('selects the newest checkpoint at start and reports it (contract: always-present keys as a subset)', async () => {
    const { status, body } = await viz.get('/state');
    expect(status).toBe(200);
    expect(Value.Check(StateAlways, body)).toBe(true);
    expect(Value.Check(StateSnapshot, body)).toBe(true);
    for (const k of ALWAYS) expect(Object.keys(body)).toContain(k);
    expect(body.checkpoint_id).toBe('20261102100000_newer');
    expect(body.is_running).toBe(false);
    expect(body.status_label).toBe('done');
    // writeCheckpoint marks every 7th node (index 3, 10) failed
    expect(body.nodes).toEqual({ total: 12, completed: 10, running: 0, failed: 2, pending: 0 });
    expect(body.phase).toBe('bfts');
    expect(body.cost).toEqual({ usd: 1.25, tokens: 5000, calls: 12 });
    expect(typeof body.cost).toBe('object');
    expect(body.best.id).toBe('node_0000000b');
    expect(body.best.metric).toBe('throughput');
  });

  test('follows the files: a new node and a live pid show up on the next poll', async () => {
    const tree = JSON.parse(readFileSync(join(ck, 'tree.json'), 'utf8'));
    tree.nodes.push({ id: 'node_new', parent_id: tree.nodes[0].id, status: 'running' });
    writeFileSync(join(ck, 'tree.json'), JSON.stringify(tree));
    const sleeper = Bun.spawn(['sleep', '30']);
    writeFileSync(join(ck, '.svc_pid'), `${sleeper.pid}\n`);
    try {
      const { body } = await viz.get('/state');
      expect(body.nodes.total).toBe(13);
      expect(body.nodes.running).toBe(1);
      expect(body.is_running).toBe(true);
      expect(body.running_pid).toBe(sleeper.pid);
      expect(body.status_label).toBe('running: bfts');
    } finally {
      sleeper.kill();
      await sleeper.exited;
    }
    const { body } = await viz.get('/state');
    expect(body.is_running).toBe(false);
    expect(body.status_label).toBe('stopped'); // a node was left running
  });

  test('without any checkpoint: only the always-present keys, idle', async () => {
    const empty = tempDir();
    const v = await startViz([], { cwd: empty });
    try {
      const { status, body } = await v.get('/state');
      expect(status).toBe(200);
      expect(Object.keys(body).sort()).toEqual([...ALWAYS].sort());
      expect(body).toMatchObject({ running_pid: null, is_running: false, exit_code: null, running: false, pid: null, status_label: 'idle' });
    } finally {
      await v.stop();
      removeDir(empty);
    }
  });
});

describe('request rules', () => {
  test('an unknown endpoint is a 404 {error}', async () => {
    const { status, body } = await viz.get('/api/no-such-thing');
    expect(status).toBe(404);
    expect(body.error).toContain('/api/no-such-thing');
  });

  test('a body over 10 MB is refused with 413 {error} before it is read', async () => {
    const res = await viz.req('/api/switch-checkpoint', { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(10 * 1024 * 1024 + 1) });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toContain('too large');
  });

  test('a chunked body over the limit is refused the same way', async () => {
    const chunk = new Uint8Array(1024 * 1024).fill(32);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent++ < 12) c.enqueue(chunk);
        else c.close();
      },
    });
    const res = await viz.req('/api/switch-checkpoint', { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toContain('too large');
  });

  test('the server keeps answering after bad requests', async () => {
    const res = await fetch(`${viz.base}/state`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(typeof ((await res.json()) as { error: unknown }).error).toBe('string');
    expect((await viz.get('/state')).status).toBe(200);
  });

  test('CORS: a page of this machine (a loopback origin) gets a 204 preflight and readable answers', async () => {
    const res = await viz.req('/api/settings', { method: 'OPTIONS', headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' } });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type');
    const get = await viz.req('/state', { headers: { Origin: 'http://127.0.0.1:3000' } });
    expect(get.status).toBe(200);
    expect(get.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3000');
  });

  test('requests are appended to viz_access.jsonl of the active checkpoint', async () => {
    await viz.get('/state?probe=access-log');
    let lines: string[] = [];
    for (let i = 0; i < 50 && !lines.some((l) => l.includes('probe=access-log')); i++) {
      await Bun.sleep(50);
      try {
        lines = readFileSync(join(ck, 'viz_access.jsonl'), 'utf8').trim().split('\n');
      } catch {}
    }
    const rec = JSON.parse(lines.find((l) => l.includes('probe=access-log')) ?? 'null');
    expect(rec).toMatchObject({ method: 'GET', path: '/state?probe=access-log', status: 200, client: '127.0.0.1' });
    expect(typeof rec.ts).toBe('string');
    expect(typeof rec.duration_ms).toBe('number');
  });
});

describe('viz_access.jsonl', () => {
  test('rotates at SVC_GUI_ACCESS_LOG_MAX_MB like the memory access log, and loses no record', async () => {
    const rdir = tempDir();
    const rck = writeCheckpoint(join(rdir, 'workspace', 'checkpoints'), { nodes: 2 });
    const v = await startViz([join(rdir, 'workspace')], { cwd: rdir, env: { SVC_GUI_ACCESS_LOG_MAX_MB: '0.004' } });
    const sent = 12 * 20;
    try {
      // batches are written every 200 ms: several batches, so the size is checked several times
      for (let round = 0; round < 12; round++) {
        await Promise.all(Array.from({ length: 20 }, (_, i) => v.req(`/api/checkpoints?r=${round}&i=${i}`)));
        await Bun.sleep(250);
      }
    } finally {
      await v.stop();
    }
    const parts = readdirSync(rck).filter((n) => /^viz_access(\.\d+)?\.jsonl$/.test(n));
    expect(parts.filter((n) => n !== 'viz_access.jsonl').length).toBeGreaterThan(1);
    const lines = parts.flatMap((n) => readFileSync(join(rck, n), 'utf8').trim().split('\n'));
    expect(lines.filter((l) => l.includes('/api/checkpoints?r=')).length).toBe(sent);
    // no part grew far past the limit: at most one batch over it
    for (const n of parts) expect(statSync(join(rck, n)).size).toBeLessThan(4 * 1024 * 1.05 + 20 * 200);
    removeDir(rdir);
  });

  test('a size that is not a positive number stops svc viz with one line', async () => {
    const r = await svc(['viz', ws, '--port', '0'], { cwd: dir, env: { SVC_GUI_ACCESS_LOG_MAX_MB: 'lots' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('SVC_GUI_ACCESS_LOG_MAX_MB');
  });
});

describe('SVC_GUI_TOKEN', () => {
  let v: Viz;
  beforeAll(async () => {
    v = await startViz([ws], { cwd: dir, env: { SVC_GUI_TOKEN: 'let-me-in-0123' } });
  });
  afterAll(async () => {
    await v.stop();
  });

  test('an /api request without the token, or with a wrong one, is 401 {error}', async () => {
    for (const headers of [{} as Record<string, string>, { Authorization: 'Bearer wrong' }, { Authorization: 'Bearer let-me-in-01234' }, { Authorization: 'let-me-in-0123' }]) {
      const res = await v.req('/api/no-such-thing', { headers });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: string }).error).toContain('token');
    }
  });

  test('an event stream may carry the token in the query; the access log never shows it', async () => {
    expect((await v.req('/api/logs?format=json&token=wrong')).status).toBe(401);
    expect((await v.req('/api/logs?format=json&x=1&token=let-me-in-0123')).status).not.toBe(401);
    // only where a browser cannot send the header
    expect((await v.req('/api/settings?token=let-me-in-0123')).status).toBe(401);
    // a percent-encoded name is still the token, and still kept out of the log
    expect((await v.req('/api/logs?format=json&%74oken=let-me-in-0123')).status).not.toBe(401);
    let log = '';
    // two requests got past the token check; the refused ones are not logged at all
    for (let i = 0; i < 50 && log.split('token=REDACTED').length - 1 < 2; i++) {
      await Bun.sleep(50);
      try {
        log = readFileSync(join(ck, 'viz_access.jsonl'), 'utf8');
      } catch {}
    }
    expect(log).toContain('/api/logs?format=json&x=1&token=REDACTED');
    expect(log).not.toContain('let-me-in-0123');
    expect(log).not.toContain('"status":401');
  });

  test('the right token passes; preflight needs none', async () => {
    const res = await v.req('/api/no-such-thing', { headers: { Authorization: 'Bearer let-me-in-0123' } });
    expect(res.status).toBe(404); // past the guard
    // a page of another origin may ask: it may hold the token, and a preflight can carry none
    const pre = await v.req('/api/no-such-thing', { method: 'OPTIONS', headers: { Origin: 'http://x.test', 'Access-Control-Request-Method': 'GET' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('http://x.test');
  });
});

describe('starting', () => {
  test('SVC_GUI_PORT wins over --port', async () => {
    const probe = Bun.serve({ port: 0, fetch: () => new Response('') });
    const free = probe.port;
    probe.stop(true);
    const v = await startViz([ws], { cwd: dir, env: { SVC_GUI_PORT: String(free) } });
    try {
      expect(v.base).toBe(`http://127.0.0.1:${free}`);
    } finally {
      await v.stop();
    }
  });

  test('a port in use is one clear line with the fix', async () => {
    const port = new URL(viz.base).port;
    const r = await svc(['viz', ws, '--port', port], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`svc: port ${port} on 127.0.0.1 is in use (pick another with --port or SVC_GUI_PORT (0 picks a free one))\n`);
  });

  test('bad --port values and a missing directory are refused', async () => {
    for (const port of ['http', '-1', '70000', '1.5']) {
      const r = await svc(['viz', ws, `--port=${port}`], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^svc: .*port/);
    }
    const r = await svc(['viz', join(dir, 'nowhere')], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('does not exist');
  });

  test('a checkpoint given on the command line is selected, its parent is listed', async () => {
    const older = join(ws, 'checkpoints', '20261101100000_older');
    const v = await startViz([older], { cwd: dir });
    try {
      expect((await v.get('/state')).body.checkpoint_id).toBe('20261101100000_older');
      expect(v.stderr()).toContain(`checkpoints in ${join(ws, 'checkpoints')}`);
    } finally {
      await v.stop();
    }
  });

  test('without a directory: the parent of SVC_CHECKPOINT_DIR is listed, and that run selected', async () => {
    const older = join(ws, 'checkpoints', '20261101100000_older');
    const v = await startViz([], { cwd: dir, env: { SVC_CHECKPOINT_DIR: older } });
    try {
      expect((await v.get('/state')).body.checkpoint_id).toBe('20261101100000_older');
      const ids = ((await v.get('/api/checkpoints')).body as { id: string }[]).map((c) => c.id);
      expect(ids).toEqual(['20261102100000_newer', '20261101100000_older']);
    } finally {
      await v.stop();
    }
  });

  test('binding beyond loopback warns that the API has no authentication', async () => {
    const v = await startViz([ws, '--host', '0.0.0.0'], { cwd: dir });
    try {
      expect(v.stderr()).toContain('warning: listening on 0.0.0.0: the API has no authentication');
      expect((await fetch(`http://127.0.0.1:${new URL(v.base).port}/state`)).status).toBe(200);
    } finally {
      await v.stop();
    }
  });

  test('stops cleanly on SIGTERM and flushes the access log', async () => {
    const ws2 = join(dir, 'ws2');
    const one = writeCheckpoint(join(ws2, 'checkpoints'), { nodes: 2 });
    mkdirSync(join(ws2, 'experiments'), { recursive: true });
    const v = await startViz([ws2], { cwd: dir });
    await v.get('/state?last');
    expect(await v.stop()).toBe(0);
    expect(readFileSync(join(one, 'viz_access.jsonl'), 'utf8')).toContain('/state?last');
  });
});
