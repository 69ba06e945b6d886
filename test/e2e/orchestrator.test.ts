// orchestrator-skill as a user starts it: `svc skill serve orchestrator-skill` over MCP stdio, and
// with --http as plain JSON on 127.0.0.1. The same tools answer on both.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { removeDir, SVC, svc, tempDir } from '../support/svc.ts';

let dir: string;
let root: string;
const servers: Bun.Subprocess[] = [];
beforeEach(() => {
  dir = tempDir();
  root = join(dir, 'ws', 'checkpoints');
  mkdirSync(root, { recursive: true });
});
afterEach(async () => {
  for (const p of servers.splice(0)) {
    p.kill('SIGTERM');
    await p.exited;
  }
  removeDir(dir);
});

const PARENT = '20261101120000_generated_run';
const CHILD = '20261101130000_child_run';
const baseEnv = () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, SVC_WORKSPACE: join(dir, 'ws'), SVC_BACKEND: 'openai-compatible', LLM_API_BASE: 'http://127.0.0.1:9/v1', SVC_MODEL: 'none', SVC_LLM_MAX_RETRIES: '0' });

/** A parent run with a paper and a child sub-experiment, as finished runs leave them. */
function seedRuns(): void {
  const parent = writeCheckpoint(root, { runId: PARENT, nodes: 3 });
  writeFileSync(join(parent, 'full_paper.tex'), '\\title{Stencils}');
  const child = writeCheckpoint(root, { runId: CHILD, nodes: 2 });
  writeFileSync(join(child, 'meta.json'), JSON.stringify({ run_id: CHILD, parent_run_id: PARENT, recursion_depth: 1, max_recursion_depth: 3, created_at: '2026-11-01T13:00:00Z', checkpoint_dir: child, inherit_idea_index: 0 }));
}

describe('over MCP stdio', () => {
  test('the five tools, each answering', async () => {
    seedRuns();
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(new StdioClientTransport({ command: SVC, args: ['skill', 'serve', 'orchestrator-skill'], env: baseEnv(), stderr: 'pipe' }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['run_experiment', 'get_status', 'list_runs', 'list_children', 'get_paper']);
      const result = async (name: string, args: Record<string, unknown> = {}) => {
        const r = await client.callTool({ name, arguments: args });
        const text = (r.content as { text: string }[])[0]?.text ?? '';
        return { isError: r.isError === true, value: JSON.parse(text) };
      };
      const runs = await result('list_runs');
      expect(runs.value.runs.map((r: { run_id: string }) => r.run_id)).toEqual([CHILD, PARENT]);
      expect((await result('list_children', { run_id: PARENT })).value.children.map((r: { run_id: string }) => r.run_id)).toEqual([CHILD]);
      expect((await result('get_status', { run_id: PARENT })).value).toMatchObject({ run_id: PARENT, is_running: false, nodes: { total: 3 }, parent_run_id: null });
      expect((await result('get_paper', { run_id: PARENT })).value).toMatchObject({ format: 'latex', content: '\\title{Stencils}' });
      const none = await result('get_paper', { run_id: CHILD });
      expect(none.isError).toBe(true);
      expect(none.value.error).toContain('no paper yet');
      const bad = await result('get_status', { run_id: '../../etc' });
      expect(bad.isError).toBe(true);
      expect(bad.value.error).toContain('invalid run id');

      const started = await result('run_experiment', { experiment_md: '# Goal\ncache blocking', llm_api_key: 'sk-stdio-secret', max_nodes: 2 });
      expect(started.isError).toBe(false);
      const ck = join(root, started.value.run_id);
      expect(JSON.parse(readFileSync(join(ck, 'launch_config.json'), 'utf8'))).toMatchObject({ max_nodes: 2, launched_by: 'orchestrator' });
      expect(readFileSync(join(ck, 'launch_config.json'), 'utf8')).not.toContain('sk-stdio-secret');
      expect(readFileSync(join(ck, 'meta.json'), 'utf8')).not.toContain('sk-stdio-secret');
    } finally {
      await client.close();
    }
  });
});

/** Starts the HTTP transport and returns its base URL, read from what it prints. */
async function serveHttp(args: string[], env: Record<string, string> = {}): Promise<string> {
  const proc = Bun.spawn([SVC, 'skill', 'serve', 'orchestrator-skill', '--http', ...args], { cwd: dir, env: { ...baseEnv(), ...env }, stdout: 'pipe', stderr: 'pipe' });
  servers.push(proc);
  const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
  let err = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`exited before listening: ${err}`);
    err += new TextDecoder().decode(value);
    const url = /serving HTTP at (http:\/\/\S+)/.exec(err)?.[1];
    if (url) return url;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

describe('over HTTP', () => {
  test('GET with query arguments, POST run_experiment with JSON; errors as {error} with their status', async () => {
    seedRuns();
    const base = await serveHttp(['--port', '0']);
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const get = async (path: string) => {
      const r = await fetch(base + path);
      return { status: r.status, body: (await r.json()) as any };
    };
    expect((await get('/mcp/list_runs')).body.runs.length).toBe(2);
    expect((await get(`/mcp/get_status?run_id=${PARENT}`)).body).toMatchObject({ run_id: PARENT, nodes: { total: 3 } });
    expect((await get(`/mcp/list_children?run_id=${PARENT}`)).body.children[0].run_id).toBe(CHILD);
    expect((await get(`/mcp/get_paper?run_id=${PARENT}`)).body.content).toBe('\\title{Stencils}');
    expect(await get(`/mcp/get_paper?run_id=${CHILD}`)).toEqual({ status: 404, body: { error: expect.stringContaining('no paper yet') } });
    expect((await get('/mcp/get_status')).status).toBe(400);
    expect((await get('/mcp/get_status?run_id=..%2F..%2Fetc')).status).toBe(400);
    expect((await get('/mcp/get_status?run_id=20990101000000_none')).status).toBe(404);
    expect((await get(`/mcp/get_status?run_id=${PARENT}&run_id=x`)).status).toBe(400);
    expect((await get('/mcp/nope')).status).toBe(404);
    expect((await get('/mcp/run_experiment')).status).toBe(405);

    const post = async (body: string) => {
      const r = await fetch(`${base}/mcp/run_experiment`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      return { status: r.status, body: (await r.json()) as any };
    };
    const started = await post(JSON.stringify({ experiment_md: '# Goal\nloop tiling', max_nodes: 2, parent_run_id: PARENT, llm_api_key: 'sk-http-secret' }));
    expect(started.status).toBe(200);
    const runId: string = started.body.run_id;
    expect(started.body.parent_run_id).toBe(PARENT);
    const meta = JSON.parse(readFileSync(join(root, runId, 'meta.json'), 'utf8'));
    expect(meta).toMatchObject({ parent_run_id: PARENT, recursion_depth: 1 });
    expect(JSON.stringify(meta)).not.toContain('sk-http-secret');
    expect((await post('{"experiment_md": ')).status).toBe(400);
    const bad = await post(JSON.stringify({ experiment_md: 'x', max_nodes: 0 }));
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('max_nodes');
  });

  test('the port comes from SVC_ORCHESTRATOR_PORT when --port is not given', async () => {
    const port = await freePort();
    expect(await serveHttp([], { SVC_ORCHESTRATOR_PORT: String(port) })).toBe(`http://127.0.0.1:${port}`);
  });

  test('--http serves only the orchestrator; --port needs --http', async () => {
    const other = await svc(['skill', 'serve', 'coding-skill', '--http'], { cwd: dir });
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('coding-skill has no HTTP transport');
    const port = await svc(['skill', 'serve', 'orchestrator-skill', '--port', '5'], { cwd: dir });
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('--port needs --http');
  });
});
