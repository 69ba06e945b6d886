import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { appendFileSync, chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Subprocess } from 'bun';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { readEvents } from '../support/event-stream.ts';
import { removeDir, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';

// each test starts a server; bunfig's test timeout is not applied by bun 1.4.5
setDefaultTimeout(20_000);

let dir: string;
let root: string;
let ckpt: string;
let viz: Viz | null = null;
let run: Subprocess | null = null;
beforeEach(() => {
  dir = tempDir();
  root = join(dir, 'workspace', 'checkpoints');
  mkdirSync(root, { recursive: true });
  ckpt = writeCheckpoint(root, { nodes: 3 });
});
afterEach(async () => {
  await viz?.stop();
  viz = null;
  run?.kill('SIGKILL');
  await run?.exited;
  run = null;
  removeDir(dir);
});

const PATH = '/usr/bin:/bin';
const QUERY_ARGS = '--query-gpu=index,name,utilization.gpu,memory.used,memory.total,temperature.gpu --format=csv,noheader,nounits';

/** A directory holding an executable `nvidia-smi` with the given shell body. */
function fakeNvidiaSmi(body: string): string {
  const bin = join(dir, 'gpu-bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'nvidia-smi'), `#!/bin/sh\n${body}\n`);
  chmodSync(join(bin, 'nvidia-smi'), 0o755);
  return bin;
}

describe('GET /api/gpu-monitor', () => {
  test('nvidia-smi on PATH: its GPUs, parsed', async () => {
    const bin = fakeNvidiaSmi(`[ "$*" = "${QUERY_ARGS}" ] || { echo "unexpected arguments: $*" >&2; exit 2; }
printf '0, NVIDIA A100-SXM4-40GB, 3, 1024, 40960, 34\\n1, NVIDIA A100-SXM4-40GB, [N/A], 39000, 40960, 71\\n'`);
    viz = await startViz([ckpt], { cwd: dir, env: { PATH: `${bin}:${PATH}` } });
    expect(await viz.get('/api/gpu-monitor')).toEqual({
      status: 200,
      body: {
        available: true,
        gpus: [
          { index: 0, name: 'NVIDIA A100-SXM4-40GB', utilization_pct: 3, memory_used_mb: 1024, memory_total_mb: 40960, temperature_c: 34 },
          { index: 1, name: 'NVIDIA A100-SXM4-40GB', utilization_pct: null, memory_used_mb: 39000, memory_total_mb: 40960, temperature_c: 71 },
        ],
      },
    });
  });

  test('nvidia-smi not on PATH: 200, not available, and why', async () => {
    viz = await startViz([ckpt], { cwd: dir, env: { PATH: join(dir, 'empty-bin') } });
    expect(await viz.get('/api/gpu-monitor')).toEqual({ status: 200, body: { available: false, gpus: [], reason: 'nvidia-smi not found on PATH' } });
  });

  test('nvidia-smi failing: its error line is the reason', async () => {
    const bin = fakeNvidiaSmi(`echo "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."; exit 9`);
    viz = await startViz([ckpt], { cwd: dir, env: { PATH: `${bin}:${PATH}` } });
    expect(await viz.get('/api/gpu-monitor')).toEqual({ status: 200, body: { available: false, gpus: [], reason: "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver." } });
  });
});

describe('GET /api/resource-metrics', () => {
  test('cpu, memory and the disk of the workspace', async () => {
    viz = await startViz([ckpt], { cwd: dir });
    const { status, body } = await viz.get('/api/resource-metrics');
    expect(status).toBe(200);
    const memTotalKb = Number(/^MemTotal:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1]);
    expect(body.memory.total_bytes).toBe(memTotalKb * 1024);
    expect(body.memory.used_bytes + body.memory.available_bytes).toBe(body.memory.total_bytes);
    expect(body.disk.path).toBe(join(dir, 'workspace'));
    expect(body.disk.total_bytes).toBeGreaterThan(body.disk.free_bytes);
    expect(body.cpu.cores).toBeGreaterThan(0);
    expect(body.cpu.load_avg).toHaveLength(3);
    for (const p of [body.cpu.percent, body.memory.percent, body.disk.percent]) {
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThanOrEqual(100);
    }
    // the second call measures since the first
    expect((await viz.get('/api/resource-metrics')).status).toBe(200);
  });
});

describe('GET /api/logs as JSON', () => {
  test('no active checkpoint: 409, in either form', async () => {
    const empty = join(dir, 'other', 'checkpoints');
    mkdirSync(empty, { recursive: true });
    viz = await startViz([empty], { cwd: dir });
    expect(await viz.get('/api/logs')).toEqual({ status: 409, body: { error: expect.stringContaining('no active checkpoint') } });
    const sse = await viz.req('/api/logs?stream=1', { headers: { accept: 'text/event-stream' } });
    expect(sse.status).toBe(409);
    expect(sse.headers.get('content-type')).toContain('application/json');
    expect(((await sse.json()) as { error: string }).error).toContain('no active checkpoint');
  });

  test('malformed lines, since or Last-Event-ID: 400 naming the problem', async () => {
    viz = await startViz([ckpt], { cwd: dir });
    for (const bad of ['abc', '0', '-1', '1.5', '5001', '99999', '']) {
      const r = await viz.get(`/api/logs?format=json&lines=${encodeURIComponent(bad)}`);
      expect(r).toEqual({ status: 400, body: { error: `lines must be a whole number from 1 to 5000, got '${bad}'` } });
    }
    for (const bad of ['12', 'x:y', '-1:0', '1:2:3']) {
      const r = await viz.get(`/api/logs?format=json&since=${encodeURIComponent(bad)}`);
      expect(r.status).toBe(400);
      expect(r.body.error).toStartWith(`since '${bad}' is not a log position`);
    }
    const r = await viz.req('/api/logs?stream=1', { headers: { 'last-event-id': 'garbage' } });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: string }).error).toStartWith("Last-Event-ID 'garbage' is not a log position");
    expect((await viz.get('/api/logs?format=xml')).status).toBe(400);
  });

  test('recent lines without colour codes, then polling with since', async () => {
    const log = join(ckpt, 'svc_run_1780000000.log');
    writeFileSync(log, `${Array.from({ length: 300 }, (_, i) => `line ${i}`).join('\n')}\n\x1b[1;32mgreen\x1b[0m\n`);
    viz = await startViz([ckpt], { cwd: dir });
    const all = await viz.get('/api/logs');
    expect(all.status).toBe(200);
    expect(all.body.file).toBe(log);
    expect(all.body.lines).toHaveLength(200);
    expect(all.body.lines.at(-1)).toBe('green');
    expect(all.body.lines[0]).toBe('line 101');
    const two = await viz.get('/api/logs?lines=2');
    expect(two.body.lines).toEqual(['line 299', 'green']);
    expect(two.body.next).toBe(all.body.next);
    // nothing new yet
    expect((await viz.get(`/api/logs?since=${two.body.next}`)).body).toEqual({ file: log, lines: [], next: two.body.next });
    appendFileSync(log, 'after 1\nafter 2\n');
    appendFileSync(join(ckpt, 'cost_trace.jsonl'), '{"timestamp":"2026-11-01T12:03:04Z","skill":"coding-skill","model":"gpt-x","total_tokens":321,"node_id":"node_00000001"}\n');
    const more = await viz.get(`/api/logs?since=${two.body.next}`);
    expect(more.body.lines).toEqual(['after 1', 'after 2', '[12:03:04] coding-skill | model=gpt-x tokens=321 node=node_00000001']);
    const limited = await viz.get(`/api/logs?since=${two.body.next}&lines=1`);
    expect(limited.body.lines).toEqual(['after 1']);
    expect((await viz.get(`/api/logs?since=${limited.body.next}&lines=1`)).body.lines).toEqual(['after 2']);
  });

  test("the reference implementation's launch log beside the checkpoint", async () => {
    writeFileSync(join(root, 'ari_run_1700000000.log'), 'from the reference launcher\n');
    viz = await startViz([ckpt], { cwd: dir });
    expect((await viz.get('/api/logs')).body).toMatchObject({ file: join(root, 'ari_run_1700000000.log'), lines: ['from the reference launcher'] });
  });

  test('no log yet: no file, no lines', async () => {
    viz = await startViz([ckpt], { cwd: dir });
    expect(await viz.get('/api/logs')).toEqual({ status: 200, body: { file: null, lines: [], next: '0:0' } });
  });

  test('JSON unless the client asks for a stream; format=json wins', async () => {
    writeFileSync(join(ckpt, 'svc_run_1.log'), 'x\n');
    viz = await startViz([ckpt], { cwd: dir });
    const plain = await viz.req('/api/logs');
    expect(plain.headers.get('content-type')).toContain('application/json');
    const json = await viz.req('/api/logs?format=json', { headers: { accept: 'text/event-stream' } });
    expect(json.headers.get('content-type')).toContain('application/json');
    expect(((await json.json()) as { lines: string[] }).lines).toEqual(['x']);
    const optedOut = await viz.req('/api/logs?stream=0', { headers: { accept: 'text/event-stream' } });
    expect(optedOut.headers.get('content-type')).toContain('application/json');
    const streams: [string, Record<string, string>][] = [
      ['/api/logs', { accept: 'text/event-stream' }],
      ['/api/logs?stream=1', {}],
    ];
    for (const [path, headers] of streams) {
      const ctrl = new AbortController();
      const r = await viz.req(path, { headers, signal: ctrl.signal });
      expect(r.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      ctrl.abort();
    }
  });
});

/** The log as an event stream, read with fetch the way an EventSource would. */
async function openEvents(v: Viz, headers: Record<string, string> = {}) {
  const ctrl = new AbortController();
  const res = await v.req('/api/logs', { headers: { accept: 'text/event-stream', ...headers }, signal: ctrl.signal });
  expect(res.status).toBe(200);
  return { ...readEvents(res), close: () => ctrl.abort() };
}

/** A real process standing in for the run: its pid goes into .svc_pid. */
function startRun(): Subprocess {
  run = Bun.spawn(['sleep', '600']);
  writeFileSync(join(ckpt, '.svc_pid'), `${run.pid}\n`);
  return run;
}

describe('GET /api/logs as server-sent events', () => {
  test('lines arrive in order as they are written; a reconnect resumes after Last-Event-ID; done when the run exits', async () => {
    const log = join(ckpt, 'svc_run_1780000000.log');
    writeFileSync(log, 'boot 1\nboot 2\n');
    startRun();
    viz = await startViz([ckpt], { cwd: dir });
    const a = await openEvents(viz);
    expect((await a.message())?.data).toEqual({ msg: 'boot 1' });
    const second = await a.message();
    expect(second?.data).toEqual({ msg: 'boot 2' });
    expect(second?.id).toBe(`${'boot 1\nboot 2\n'.length}:0`);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      appendFileSync(log, `step ${i}\n`);
      const ev = await a.message();
      expect(ev?.data).toEqual({ msg: `step ${i}` });
      ids.push(ev?.id ?? '');
    }
    // ids grow with the log
    expect(ids.map((id) => Number(id.split(':')[0]))).toEqual([...ids.map((id) => Number(id.split(':')[0]))].sort((x, y) => x - y));
    a.close();

    // written while nobody was reading: delivered after the last id seen, nothing repeated
    appendFileSync(log, 'offline 1\noffline 2\n');
    const b = await openEvents(viz, { 'last-event-id': ids.at(-1) ?? '' });
    expect((await b.message())?.data).toEqual({ msg: 'offline 1' });
    expect((await b.message())?.data).toEqual({ msg: 'offline 2' });
    appendFileSync(join(ckpt, 'cost_trace.jsonl'), '{"timestamp":"2026-11-01T12:00:09Z","skill":"idea-skill","model":"gpt-x","total_tokens":77}\n');
    expect((await b.message())?.data).toEqual({ msg: '[12:00:09] idea-skill | model=gpt-x tokens=77 node=-' });

    appendFileSync(log, 'finished');
    run?.kill('SIGTERM');
    await run?.exited;
    expect((await b.message())?.data).toEqual({ msg: 'finished' });
    const end = await b.message();
    expect(end).toEqual({ event: 'done', data: { msg: '[end of log]' } });
    expect(await b.next()).toBeNull();
    expect(b.closed()).toBe(true);
  }, 30_000);

  test('truncation and a relaunch (a newer log) are followed', async () => {
    const log = join(ckpt, 'svc_run_1780000000.log');
    writeFileSync(log, 'a fairly long first line\n');
    startRun();
    viz = await startViz([ckpt], { cwd: dir });
    const s = await openEvents(viz);
    expect((await s.message())?.data?.msg).toBe('a fairly long first line');
    writeFileSync(log, 'after truncation\n');
    expect((await s.message())?.data?.msg).toBe('after truncation');
    writeFileSync(join(ckpt, 'svc_run_1780000999.log'), 'relaunched\n');
    expect((await s.message())?.data?.msg).toBe('relaunched');
    s.close();
  }, 20_000);

  test('a run that has ended: its recent lines, then done', async () => {
    writeFileSync(join(ckpt, 'svc_run_1.log'), 'only line\n');
    writeFileSync(join(ckpt, '.svc_pid'), '999999999\n');
    viz = await startViz([ckpt], { cwd: dir });
    const s = await openEvents(viz);
    expect(await s.message()).toEqual({ id: `${'only line\n'.length}:0`, data: { msg: 'only line' } });
    expect(await s.message()).toEqual({ event: 'done', data: { msg: '[end of log]' } });
    expect(await s.next()).toBeNull();
  }, 20_000);

  test('a quiet stream gets a heartbeat comment', async () => {
    writeFileSync(join(ckpt, 'svc_run_1.log'), '');
    startRun();
    viz = await startViz([ckpt], { cwd: dir });
    const s = await openEvents(viz);
    let ev = await s.next();
    while (ev && ev.comment === undefined) ev = await s.next();
    expect(ev).toEqual({ comment: 'heartbeat' });
    s.close();
  }, 40_000);

  test('a client that goes away stops the polling', async () => {
    writeFileSync(join(ckpt, 'svc_run_1.log'), 'x\n');
    startRun();
    viz = await startViz([ckpt], { cwd: dir });
    // each poll reads the pid file: read syscalls of the server show whether it still polls
    const reads = () => Number(/^syscr: (\d+)$/m.exec(readFileSync(`/proc/${viz?.proc.pid}/io`, 'utf8'))?.[1]);
    const during = async () => {
      const before = reads();
      await Bun.sleep(2000);
      return reads() - before;
    };
    const streams = await Promise.all([openEvents(viz), openEvents(viz), openEvents(viz)]);
    for (const s of streams) await s.message();
    const polling = await during();
    for (const s of streams) s.close();
    await Bun.sleep(1000);
    const after = await during();
    // three streams polling every 500 ms read far more than an idle server
    expect(polling).toBeGreaterThan(8);
    expect(after).toBeLessThan(polling / 3);
  }, 20_000);
});
