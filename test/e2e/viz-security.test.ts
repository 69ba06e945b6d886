// Attacks on the dashboard: each one a request a hostile page or client could send, each answered
// with a clear {error}, nothing read, run or leaked.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { basename, join } from 'node:path';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { removeDir, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';
import { lacks } from '../support/components.ts';

const KEY = 'sk-test-secret-value-0123456789';
const TOKEN = 'dashboard-token-42';

let dir: string;
let project: string;
let ck: string;
let viz: Viz;
let guarded: Viz;

/** One HTTP/1.1 request over a raw socket, so that Host and the request line are exactly as given. */
function raw(base: string, text: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((done, fail) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let out = '';
    socket.on('data', (d) => {
      out += d.toString();
    });
    socket.on('end', () => done(out));
    socket.on('error', fail);
  });
}

beforeAll(async () => {
  dir = tempDir();
  project = join(dir, 'project');
  ck = writeCheckpoint(join(project, 'workspace', 'checkpoints'), { nodes: 3 });
  writeFileSync(join(project, '.env'), `PROVIDERA_API_KEY=${KEY}\n`);
  writeFileSync(join(ck, 'workflow.yaml'), 'llm:\n  backend: ${PROVIDERA_API_KEY}\n  model: m-${PROVIDERA_API_KEY}\n');
  const env = { SVC_ROOT: project };
  viz = await startViz([join(project, 'workspace')], { cwd: project, env });
  guarded = await startViz([join(project, 'workspace')], { cwd: project, env: { ...env, SVC_GUI_TOKEN: TOKEN } });
});

afterAll(async () => {
  await viz.stop();
  await guarded.stop();
  removeDir(dir);
});

describe('the token and the Host header', () => {
  test('a short Host cannot make the router see /api where the token check saw something else', async () => {
    const out = await raw(guarded.base, 'GET /foo/api/env-keys HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(out).toMatch(/^HTTP\/1\.1 (400|421)/);
    expect(out).not.toContain('PROVIDERA_API_KEY');
  });

  test('a name rebound to 127.0.0.1 gets nothing (421)', async () => {
    const out = await raw(viz.base, 'GET /api/checkpoints HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n');
    expect(out).toMatch(/^HTTP\/1\.1 421/);
    expect(out).toContain('"error"');
    expect(out).not.toContain(ck);
  });

  test('a wrong token of the right length, or an empty one, is refused', async () => {
    const near = `${TOKEN.slice(0, -1)}3`;
    for (const init of [{ headers: { Authorization: `Bearer ${near}` } }, { headers: { Authorization: 'Bearer ' } }]) {
      expect((await guarded.req('/api/checkpoints', init)).status).toBe(401);
    }
    expect((await guarded.req(`/api/logs?format=json&token=${near}`)).status).toBe(401);
    expect((await guarded.req('/api/checkpoints', { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });

  test('the source viewer needs the token too', async () => {
    const res = await guarded.req(`/codefile?path=experiment.md`);
    expect(res.status).toBe(401);
    expect((await guarded.req(`/codefile?path=experiment.md&token=${TOKEN}`)).status).toBe(200);
  });
});

describe('every route but the page needs the token, however its path is spelled', () => {
  test('a trailing slash, doubled slashes or dot segments reach no guarded route without the token', async () => {
    const port = new URL(guarded.base).port;
    const spellings = ['/codefile/?path=experiment.md', '/codefile//?path=experiment.md', '/state/', '/api/checkpoints/', '/api/env-keys//', '/static/../state', '/static/%2e%2e/api/env-keys', '/memory/../../api/settings', '/x/..//codefile?path=experiment.md'];
    for (const path of spellings) {
      const out = await raw(guarded.base, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
      expect([path, out.split('\r\n')[0]]).toEqual([path, 'HTTP/1.1 401 Unauthorized']);
      expect(out).not.toContain('PROVIDERA_API_KEY');
      expect(out).not.toContain('experiment');
    }
  });

  test('with the token, the trailing-slash spelling answers as the plain one', async () => {
    const res = await guarded.req(`/codefile/?path=experiment.md&token=${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
  });

  test('/state tells nothing (checkpoint, model, cost, best metric) without the token', async () => {
    const res = await guarded.req('/state');
    expect(res.status).toBe(401);
    const text = await res.text();
    expect(text).not.toContain(basename(ck));
    expect(text).not.toContain('cost');
    expect((await guarded.req('/state', { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });

  test('the page itself and its assets load without it', async () => {
    for (const path of ['/', '/static/logo.svg']) {
      expect([path, (await guarded.req(path)).status]).toEqual([path, 200]);
    }
  });
});

describe('secrets never leave', () => {
  test('the source viewer refuses .env and key files, however named', async () => {
    writeFileSync(join(ck, 'id_rsa'), 'PRIVATE');
    for (const path of [join(project, '.env'), '.env', 'id_rsa']) {
      const res = await viz.req(`/codefile?path=${encodeURIComponent(path)}`);
      expect([path, res.status]).toEqual([path, 400]);
      expect(await res.text()).not.toContain(KEY);
    }
  });

  test('a ${SECRET} in the workflow shows as its reference in /state, settings and the workflow', async () => {
    for (const path of ['/state', '/api/settings', '/api/workflow', '/api/workflow/flow', '/api/env-keys']) {
      const text = await (await viz.req(path)).text();
      expect([path, text.includes(KEY)]).toEqual([path, false]);
    }
    expect((await viz.get('/state')).body.model).toEqual({ provider: '${PROVIDERA_API_KEY}', model: 'm-${PROVIDERA_API_KEY}' });
  });

  test('a ${SECRET} in a posted workflow never comes back in the error message', async () => {
    const res = await viz.post('/api/workflow', { yaml: 'resources:\n  cpus: ${PROVIDERA_API_KEY}\n' });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).not.toContain(KEY);
  });
});

describe('links leading out of the checkpoint', () => {
  test('compile refuses a draft reached through a linked directory, and writes nothing outside', async () => {
    const outside = join(dir, 'outside-paper');
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, 'x.tex'), '\\documentclass{article}\\begin{document}x\\end{document}\n');
    symlinkSync(outside, join(ck, 'linked-paper'));
    const res = await viz.post('/api/checkpoint/compile', { path: 'linked-paper/x.tex' });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('outside');
    expect(readdirSync(outside)).toEqual(['x.tex']);
  });

  test('the file tree does not enter a linked directory out', async () => {
    const outside = join(dir, 'outside-tree');
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, 'elsewhere.txt'), 'x');
    symlinkSync(outside, join(ck, 'linked-tree'));
    const { status, body } = await viz.get(`/api/checkpoint/${basename(ck)}/filetree`);
    expect(status).toBe(200);
    const text = JSON.stringify(body);
    expect(text).not.toContain('elsewhere.txt');
  });
});

describe('nothing runs', () => {
  test.skipIf(lacks('latex'))('latexmkrc cannot be saved, and one already there is not run by compile', async () => {
    const saved = await viz.post('/api/checkpoint/file/save', { path: 'paper/latexmkrc', content: 'system("touch pwned");' });
    expect(saved.status).toBe(400);
    expect(saved.body.error).toContain('latexmk');
    mkdirSync(join(ck, 'paper'), { recursive: true });
    writeFileSync(join(ck, 'paper', 'latexmkrc'), `system("touch ${join(dir, 'pwned')}");\n`);
    writeFileSync(join(ck, 'paper', 'full_paper.tex'), '\\documentclass{article}\\begin{document}Hi\\end{document}\n');
    const res = await viz.post('/api/checkpoint/compile', {});
    expect(res.status).toBe(200);
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
  });

  test('variables that load code into programs cannot be written to .env', async () => {
    const before = readFileSync(join(project, '.env'), 'utf8');
    for (const name of ['PERL5OPT', 'LD_PRELOAD', 'PATH']) {
      const res = await viz.post('/api/env-keys', { [name]: 'x' });
      expect([name, res.status]).toEqual([name, 400]);
    }
    expect(readFileSync(join(project, '.env'), 'utf8')).toBe(before);
  });
});

describe('odd requests get a clear 4xx, never a 500', () => {
  test('malformed percent-encoding in a path parameter', async () => {
    for (const path of ['/api/checkpoint/%ff/files', '/api/nodes/%ff/x/report', '/api/fewshot/%ff']) {
      const res = await viz.req(path, path.includes('fewshot') ? { method: 'POST' } : {});
      expect([path, res.status]).toEqual([path, 400]);
      expect(((await res.json()) as { error: string }).error).toContain('percent-encoding');
    }
  });

  test('a name longer than the file system allows', async () => {
    const res = await viz.post('/api/checkpoint/file/save', { path: 'b'.repeat(300), content: 'x' });
    expect(res.status).toBe(400);
    expect(typeof res.body.error).toBe('string');
    expect((await viz.req(`/codefile?path=${'a/'.repeat(2100)}x`)).status).toBe(400);
  });

  test('a body nested thousands deep is refused and settings.json is not touched', async () => {
    const deep = `${'{"x":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const res = await viz.req('/api/settings', { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"x":${deep}}` });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain('nested');
    expect(existsSync(join(project, 'workspace', 'settings.json'))).toBe(false);
    expect((await viz.get('/api/settings')).status).toBe(200);
  });

  test('an array 100,000 levels deep inside a field is a 400 on every route, with nothing on stderr', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const bodies: [string, string][] = [
      ['/api/workflow/flow', `{"nodes":${deep},"edges":[]}`],
      ['/api/checkpoint/file/save', `{"path":${deep},"content":"x"}`],
      ['/api/ear/clone-verify', `{"ref":${deep}}`],
      ['/api/workflow', `{"yaml":${deep}}`],
      ['/api/upload/delete', `{"name":${deep}}`],
    ];
    for (const [path, body] of bodies) {
      const res = await viz.req(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect([path, res.status]).toEqual([path, 400]);
      expect(((await res.json()) as { error: string }).error).toContain('nested');
    }
    expect(viz.stderr()).not.toContain('RangeError');
    expect(viz.stderr()).not.toContain('call stack');
  });

  test('a multipart file part with an empty filename', async () => {
    const body = '--b\r\nContent-Disposition: form-data; name="f"; filename=""\r\n\r\nx\r\n--b--\r\n';
    const res = await viz.req('/api/upload', { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=b' }, body });
    expect(res.status).toBe(400);
  });

  test('an upload declared far over the limit: 413 with {error}, not a bare status', async () => {
    const out = await raw(viz.base, `POST /api/upload HTTP/1.1\r\nHost: 127.0.0.1:${new URL(viz.base).port}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 200000000\r\nConnection: close\r\n\r\n`);
    expect(out).toMatch(/^HTTP\/1\.1 413/);
    expect(out).toContain('"error"');
  });

  test('/state keeps its keys when the project .env is broken', async () => {
    const before = readFileSync(join(project, '.env'), 'utf8');
    writeFileSync(join(project, '.env'), `${before}a-pasted-line-without-equals\n`);
    try {
      await Bun.sleep(2100); // past the configuration cache
      const { status, body } = await viz.get('/state');
      expect(status).toBe(200);
      expect(body).toMatchObject({ is_running: false, running_pid: null });
    } finally {
      writeFileSync(join(project, '.env'), before);
    }
  });
});
