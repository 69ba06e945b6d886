import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import orchestratorSkill from '../../../../src/skills/orchestrator/index.ts';
import { serveSkillHttp } from '../../../../src/skills/orchestrator/http.ts';
import { rawHttp } from '../../../support/raw-http.ts';

let ws: string;
let server: ReturnType<typeof serveSkillHttp>['server'];
let port: number;

beforeAll(() => {
  ws = mkdtempSync(join(tmpdir(), 'svc-orch-http-'));
  mkdirSync(join(ws, 'checkpoints'), { recursive: true });
  const started = serveSkillHttp(orchestratorSkill, { SVC_WORKSPACE: ws, HOME: ws }, { host: '127.0.0.1', port: 0 });
  server = started.server;
  port = server.port as number;
});
afterAll(() => {
  server.stop(true);
  rmSync(ws, { recursive: true, force: true });
});

const raw = (method: string, path: string, headers: Record<string, string>, body?: string) => rawHttp(port, method, path, headers, body);

describe('orchestrator HTTP transport', () => {
  test('a request naming another host is refused with {error}, like the dashboard', async () => {
    const res = await raw('GET', '/mcp/list_runs', { host: 'evil.example:80' });
    expect(res.status).toBe(421);
    expect(JSON.parse(res.body).error).toContain('127.0.0.1');
  });

  test('a loopback Host is answered', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const res = await raw('GET', '/mcp/list_runs', { host });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toEqual({ runs: [] });
    }
  });

  test('malformed JSON, a wrong type and a non-object body are 400 with {error}', async () => {
    for (const body of ['{not json', '{"experiment_md": 5}', '[1,2]', '"text"', 'null']) {
      const res = await raw('POST', '/mcp/run_experiment', { host: `127.0.0.1:${port}`, 'content-type': 'application/json' }, body);
      expect(res.status).toBe(400);
      expect(typeof JSON.parse(res.body).error).toBe('string');
    }
  });

  test('a body that is not JSON (what a web page can post without asking) is 415 and starts nothing', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await raw('POST', '/mcp/run_experiment', { host: `127.0.0.1:${port}`, 'content-type': type }, '{"experiment_md": "# goal"}');
      expect(res.status).toBe(415);
    }
    expect(JSON.parse((await raw('GET', '/mcp/list_runs', { host: `127.0.0.1:${port}` })).body)).toEqual({ runs: [] });
  });

  test('an oversized body is 413 with {error}', async () => {
    const big = `{"experiment_md": "${'x'.repeat(11 * 1024 * 1024)}"}`;
    const res = await raw('POST', '/mcp/run_experiment', { host: `127.0.0.1:${port}`, 'content-type': 'application/json', 'content-length': String(big.length) }, big);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error).toContain('too large');
  });

  test('a path-like run id is 400, an unknown one 404', async () => {
    const bad = await raw('GET', `/mcp/get_status?run_id=${encodeURIComponent('../../etc')}`, { host: `127.0.0.1:${port}` });
    expect(bad.status).toBe(400);
    const none = await raw('GET', '/mcp/get_status?run_id=nope', { host: `127.0.0.1:${port}` });
    expect(none.status).toBe(404);
  });

  test('get_paper does not follow a paper symlink out of the run', async () => {
    const run = join(ws, 'checkpoints', 'run_a');
    mkdirSync(run, { recursive: true });
    writeFileSync(join(run, 'experiment.md'), '# goal\n');
    writeFileSync(join(run, 'tree.json'), '{}');
    const secret = join(ws, 'secret.txt');
    writeFileSync(secret, 'TOP SECRET');
    symlinkSync(secret, join(run, 'full_paper.tex'));
    const res = await raw('GET', '/mcp/get_paper?run_id=run_a', { host: `127.0.0.1:${port}` });
    expect(res.body).not.toContain('TOP SECRET');
  });
});
