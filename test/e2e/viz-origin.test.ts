// Pages of other origins: any web page the user opens can send requests to the dashboard. Each
// test sends what such a page's browser would send (a real Origin header) and checks that nothing
// is read, written or redirected unless the page is of this machine, listed on purpose, or holds
// the token; and that a token-holding page still cannot change where svc sends requests unless
// the user approves it in the dashboard.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { removeDir, svc, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';

const EVIL = 'https://evil.example';
const TOKEN = 'origin-test-token-77';

let dir: string;
let project: string;
let ck: string;
let open: Viz;
let guarded: Viz;
let listed: Viz;

const settingsFile = () => join(project, 'workspace', 'settings.json');
const envFile = () => join(project, '.env');
const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : null);
const fromEvil = (extra: Record<string, string> = {}) => ({ Origin: EVIL, ...extra });
const withToken = (extra: Record<string, string> = {}) => ({ Authorization: `Bearer ${TOKEN}`, ...extra });

beforeAll(async () => {
  dir = tempDir();
  project = join(dir, 'project');
  ck = writeCheckpoint(join(project, 'workspace', 'checkpoints'), { nodes: 3 });
  writeFileSync(envFile(), 'PROVIDERA_API_KEY=sk-origin-test-0123456789\n');
  const env = { SVC_ROOT: project };
  open = await startViz([join(project, 'workspace')], { cwd: project, env });
  guarded = await startViz([join(project, 'workspace')], { cwd: project, env: { ...env, SVC_GUI_TOKEN: TOKEN } });
  listed = await startViz([join(project, 'workspace'), '--cors-origin', 'https://notebook.example:8443'], { cwd: project, env: { ...env, SVC_GUI_CORS_ORIGINS: 'https://lab.example' } });
});

afterAll(async () => {
  await Promise.all([open.stop(), guarded.stop(), listed.stop()]);
  removeDir(dir);
});

describe('a page of another origin, without the token', () => {
  test('reads nothing: the state, the checkpoints, the settings and the log are 403 without a CORS header', async () => {
    for (const path of ['/state', '/api/checkpoints', '/api/settings', '/api/env-keys', '/api/logs?format=json']) {
      const res = await open.req(path, { headers: fromEvil() });
      expect([path, res.status]).toEqual([path, 403]);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(((await res.json()) as { error: string }).error).toContain('--cors-origin');
    }
  });

  test('cannot point the local model host at itself, nor LLM_API_BASE: settings.json and .env stay as they were', async () => {
    const settingsBefore = read(settingsFile());
    const envBefore = read(envFile());
    // a form post or a no-cors fetch: the browser sends it without a preflight
    const settings = await open.req('/api/settings', { method: 'POST', headers: fromEvil({ 'content-type': 'text/plain' }), body: JSON.stringify({ localllm_host: 'http://evil.example:11434' }) });
    expect(settings.status).toBe(403);
    const env = await open.req('/api/env-keys', { json: { LLM_API_BASE: 'https://evil.example/v1' }, headers: fromEvil() });
    expect(env.status).toBe(403);
    expect(read(settingsFile())).toBe(settingsBefore);
    expect(read(envFile())).toBe(envBefore);
  });

  test('a preflight is refused too, so a browser never sends the request', async () => {
    const res = await open.req('/api/settings', { method: 'OPTIONS', headers: fromEvil({ 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' }) });
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('look-alike origins are foreign: null, a loopback name as a subdomain, https on localhost, another port scheme', async () => {
    for (const origin of ['null', 'http://127.0.0.1.evil.example', 'http://localhost.evil.example:8765', 'https://localhost:8765', 'file://', 'http://127.0.0.2:80']) {
      const res = await open.req('/state', { headers: { Origin: origin } });
      expect([origin, res.status]).toEqual([origin, 403]);
    }
  });

  test('the refused requests are not written to the access log', async () => {
    await open.req('/state?knock=evil', { headers: fromEvil() });
    await open.req('/state?knock=home');
    let log = '';
    for (let i = 0; i < 50 && !log.includes('knock=home'); i++) {
      await Bun.sleep(50);
      log = read(join(ck, 'viz_access.jsonl')) ?? '';
    }
    expect(log).toContain('knock=home');
    expect(log).not.toContain('knock=evil');
  });
});

describe('pages that may call the API', () => {
  test('loopback origins of any port, and requests with no Origin (curl, scripts)', async () => {
    for (const origin of ['http://127.0.0.1:3000', 'http://localhost:5173', 'http://[::1]:8080', 'http://localhost']) {
      const res = await open.req('/api/checkpoints', { headers: { Origin: origin } });
      expect([origin, res.status, res.headers.get('access-control-allow-origin')]).toEqual([origin, 200, origin]);
    }
    const plain = await open.req('/api/checkpoints');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('origins listed with --cors-origin and SVC_GUI_CORS_ORIGINS, and no others', async () => {
    for (const origin of ['https://notebook.example:8443', 'https://lab.example']) {
      const res = await listed.req('/api/checkpoints', { headers: { Origin: origin } });
      expect([origin, res.status, res.headers.get('access-control-allow-origin')]).toEqual([origin, 200, origin]);
    }
    for (const origin of ['https://notebook.example', EVIL]) {
      expect((await listed.req('/api/checkpoints', { headers: { Origin: origin } })).status).toBe(403);
    }
  });

  test('a list entry that is not an origin stops svc viz with one line saying so', async () => {
    for (const [args, env] of [
      [['--cors-origin', '*'], {}],
      [[], { SVC_GUI_CORS_ORIGINS: 'https://ok.example, https://bad.example/path' }],
    ] as [string[], Record<string, string>][]) {
      const r = await svc(['viz', join(project, 'workspace'), '--port', '0', ...args], { cwd: project, env });
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain('is not an origin');
    }
  });
});

describe('a page of another origin that holds the token', () => {
  test('may read and act, with a CORS header so that it can read the answer', async () => {
    const pre = await guarded.req('/api/checkpoints', { method: 'OPTIONS', headers: fromEvil({ 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' }) });
    expect(pre.status).toBe(204);
    const res = await guarded.req('/api/checkpoints', { headers: fromEvil(withToken()) });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(EVIL);
    // a setting that does not say where requests go is saved at once
    const lang = await guarded.req('/api/settings', { json: { language: 'ja' }, headers: fromEvil(withToken()) });
    expect(lang.status).toBe(200);
    expect(JSON.parse(read(settingsFile()) ?? '{}').language).toBe('ja');
  });

  test('without the token it gets nothing, and the server does not say whether the token was close', async () => {
    const res = await guarded.req('/state', { headers: fromEvil({ Authorization: 'Bearer wrong' }) });
    expect(res.status).toBe(403);
  });

  test('cannot change where requests go: the change waits for the user, who approves it in the dashboard', async () => {
    const before = read(settingsFile());
    const res = await guarded.req('/api/settings', { json: { localllm_host: 'http://evil.example:11434', language: 'en' }, headers: fromEvil(withToken()) });
    expect(res.status).toBe(403);
    const { error } = (await res.json()) as { error: string };
    expect(error).toContain('localllm_host');
    expect(read(settingsFile())).toBe(before);
    // the page cannot see or answer the held change itself
    expect((await guarded.req('/api/confirmations', { headers: fromEvil(withToken()) })).status).toBe(403);
    const id = /confirmation ([0-9a-f-]{36})/.exec(error)?.[1] ?? '';
    expect((await guarded.req(`/api/confirmations/${id}`, { json: { approve: true }, headers: fromEvil(withToken()) })).status).toBe(403);
    expect(read(settingsFile())).toBe(before);
    // the dashboard (a loopback page) lists it and approves it; only then is it saved
    const list = await guarded.req('/api/confirmations', { headers: withToken({ Origin: guarded.base }) });
    const { pending } = (await list.json()) as { pending: { id: string; origin: string; keys: string[]; path: string }[] };
    expect(pending.find((p) => p.id === id)).toMatchObject({ origin: EVIL, keys: ['localllm_host'], path: '/api/settings' });
    const approved = await guarded.req(`/api/confirmations/${id}`, { json: { approve: true }, headers: withToken({ Origin: guarded.base }) });
    expect(approved.status).toBe(200);
    expect(JSON.parse(read(settingsFile()) ?? '{}').localllm_host).toBe('http://evil.example:11434');
    // answered once: a second answer finds nothing
    expect((await guarded.req(`/api/confirmations/${id}`, { json: { approve: true }, headers: withToken() })).status).toBe(404);
  });

  test('a rejected change is never applied', async () => {
    const envBefore = read(envFile());
    const res = await guarded.req('/api/env-keys', { json: { OPENAI_BASE_URL: 'https://evil.example/v1' }, headers: fromEvil(withToken()) });
    expect(res.status).toBe(403);
    const id = /confirmation ([0-9a-f-]{36})/.exec(((await res.json()) as { error: string }).error)?.[1] ?? '';
    const rejected = await guarded.req(`/api/confirmations/${id}`, { json: { approve: false }, headers: withToken() });
    expect(rejected.status).toBe(200);
    expect(read(envFile())).toBe(envBefore);
    const { pending } = (await (await guarded.req('/api/confirmations', { headers: withToken() })).json()) as { pending: { id: string }[] };
    expect(pending.some((p) => p.id === id)).toBe(false);
  });

  test('variables that route by what they are, not by their name, wait too: API bases, the registry list, publish targets', async () => {
    const envBefore = read(envFile());
    const moves: [string, string][] = [
      ['SVC_HOSTING_DOI_API', 'https://evil.example'],
      ['SVC_HOSTING_RELEASE_API', 'https://evil.example'],
      ['SVC_REGISTRIES_FILE', '/tmp/evil-registries.yaml'],
      ['SVC_HOSTING_RELEASE_REPO', 'evil/loot'],
    ];
    for (const [name, value] of moves) {
      const res = await guarded.req('/api/env-keys', { json: { keys: { [name]: value } }, headers: fromEvil(withToken()) });
      expect([name, res.status]).toEqual([name, 403]);
      expect(((await res.json()) as { error: string }).error).toContain(name);
    }
    expect(read(envFile())).toBe(envBefore);
  });

  test('the {key, value} shape is held alike', async () => {
    const envBefore = read(envFile());
    const res = await guarded.req('/api/env-keys', { json: { key: 'LLM_API_BASE', value: 'https://evil.example/v1' }, headers: fromEvil(withToken()) });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toContain('LLM_API_BASE');
    expect(read(envFile())).toBe(envBefore);
  });

  test('a key is still saved at once: only routing variables wait', async () => {
    const res = await guarded.req('/api/env-keys', { json: { PROVIDERA_API_KEY: 'sk-replaced-by-page-000000' }, headers: fromEvil(withToken()) });
    expect(res.status).toBe(200);
    expect(read(envFile())).toContain('sk-replaced-by-page-000000');
  });

  test('a workflow whose base_url changes waits; the same workflow with base_url as it was is saved', async () => {
    const copy = join(ck, 'workflow.yaml');
    writeFileSync(copy, 'llm:\n  model: m-1\n  base_url: ""\n');
    const moved = await guarded.req('/api/workflow', { json: { yaml: 'llm:\n  model: m-2\n  base_url: https://evil.example/v1\n' }, headers: fromEvil(withToken()) });
    expect(moved.status).toBe(403);
    expect(((await moved.json()) as { error: string }).error).toContain('llm.base_url');
    expect(readFileSync(copy, 'utf8')).toContain('m-1');
    const same = await guarded.req('/api/workflow', { json: { yaml: 'llm:\n  model: m-2\n  base_url: ""\n' }, headers: fromEvil(withToken()) });
    expect(same.status).toBe(200);
    expect(readFileSync(copy, 'utf8')).toContain('m-2');
  });

  test('a pipeline posted whole ({pipeline}) whose stage carries a new API base waits too', async () => {
    const copy = join(ck, 'workflow.yaml');
    writeFileSync(copy, 'pipeline:\n  - {stage: write_paper, skill: paper-skill, tool: write_paper_iterative}\n');
    const res = await guarded.req('/api/workflow', { json: { pipeline: [{ stage: 'write_paper', skill: 'paper-skill', tool: 'write_paper_iterative', inputs: { llm_base_url: 'https://evil.example/v1' } }] }, headers: fromEvil(withToken()) });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toContain('pipeline[0].inputs.llm_base_url');
    expect(readFileSync(copy, 'utf8')).not.toContain('evil.example');
  });

  test('nor through the file API: saving or deleting workflow.yaml from such a page is refused', async () => {
    const copy = join(ck, 'workflow.yaml');
    writeFileSync(copy, 'llm:\n  base_url: ""\n');
    for (const [path, body] of [
      ['/api/checkpoint/file/save', { path: 'workflow.yaml', content: 'llm:\n  base_url: http://evil.example:1\n' }],
      ['/api/checkpoint/file/save', { path: './workflow.yaml', content: 'x: 1\n' }],
      ['/api/checkpoint/file/delete', { path: 'workflow.yaml' }],
    ] as const) {
      const res = await guarded.req(path, { json: body, headers: fromEvil(withToken()) });
      expect([path, res.status]).toEqual([path, 403]);
    }
    expect(readFileSync(copy, 'utf8')).toBe('llm:\n  base_url: ""\n');
  });

  test('publish settings that name an endpoint wait too', async () => {
    const res = await guarded.req('/api/publish/settings', { json: { backend: 'svc-registry', registry_url: 'https://evil.example' }, headers: fromEvil(withToken()) });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toContain('publish.registry_url');
  });
});
