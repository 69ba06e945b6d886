import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { basename, join, resolve } from 'node:path';
import type { Subprocess } from 'bun';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { removeDir, SVC, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';

// each test starts a server; bunfig's test timeout is not applied by bun 1.4.5
setDefaultTimeout(20_000);

const UI = resolve(import.meta.dir, '../../ui');
const CSP = "default-src 'none'; style-src 'unsafe-inline'";

let dir: string;
let outside: string;
let root: string;
let ckpt: string;
let viz: Viz | null = null;
beforeEach(() => {
  dir = tempDir();
  outside = tempDir('svc-outside-');
  root = join(dir, 'workspace', 'checkpoints');
  mkdirSync(root, { recursive: true });
  ckpt = writeCheckpoint(root, { nodes: 3 });
});
afterEach(async () => {
  await viz?.stop();
  viz = null;
  removeDir(dir);
  removeDir(outside);
});

/** The URLs of the page's script and stylesheet (the bundle names them by content hash). */
function assetsOf(html: string): { script: string; style: string } {
  const script = /<script[^>]+src="([^"]+)"/.exec(html)?.[1];
  const style = /<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"|<link[^>]+href="([^"]+)"[^>]+rel="stylesheet"/.exec(html);
  expect(script).toBeDefined();
  expect(style).not.toBeNull();
  return { script: script ?? '', style: style?.[1] ?? style?.[2] ?? '' };
}

async function checkDashboard(base: string): Promise<void> {
  const page = await fetch(`${base}/`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toStartWith('text/html');
  const html = await page.text();
  expect(html).toContain('<title>svc dashboard</title>');
  expect(html).toContain('<div id="root"></div>');
  const { script, style } = assetsOf(html);
  // the entry script and every chunk of a page it loads later, each served with its name
  const chunks = new Set([new URL(script, base).pathname]);
  let code = '';
  for (const path of chunks) {
    const js = await fetch(new URL(path, base));
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(js.headers.get('cache-control')).toContain('immutable');
    const text = await js.text();
    code += text;
    for (const [name] of text.matchAll(/chunk-[a-z0-9]+\.js/g)) chunks.add(`/${name}`);
  }
  expect(chunks.size).toBeGreaterThan(2);
  // the bundled React app of ui/src: follows the log and reads the state and the checkpoint list
  for (const s of ['/api/logs?stream=1', '/state', '/api/checkpoints', '/api/switch-checkpoint']) expect(code).toContain(s);
  const css = await fetch(new URL(style, base));
  expect(css.status).toBe(200);
  expect(css.headers.get('content-type')).toStartWith('text/css');
  expect(await css.text()).toContain('#log-lines');
  const icon = /<link[^>]+rel="icon"[^>]+href="([^"]+)"/.exec(html)?.[1] ?? '';
  const svg = await fetch(new URL(icon, base));
  expect(svg.status).toBe(200);
  expect(svg.headers.get('content-type')).toStartWith('image/svg+xml');
}

describe('the dashboard page', () => {
  test('GET / is the bundled page; its script, stylesheet and icon are served', async () => {
    viz = await startViz([ckpt], { cwd: dir });
    await checkDashboard(viz.base);
  });

  test('from a copy of the binary in another directory, with nothing else on disk', async () => {
    const bin = join(outside, 'bin');
    mkdirSync(bin);
    copyFileSync(SVC, join(bin, 'svc'));
    const elsewhere = join(outside, 'cwd');
    mkdirSync(elsewhere);
    const proc = Bun.spawn([join(bin, 'svc'), 'viz', '--port', '0', ckpt], { cwd: elsewhere, env: { PATH: '/usr/bin:/bin', HOME: elsewhere }, stderr: 'pipe', stdout: 'ignore' });
    try {
      const base = await listeningAt(proc);
      await checkDashboard(base);
      expect((await fetch(`${base}/static/logo.svg`)).status).toBe(200);
      expect((await fetch(`${base}/memory/node_1`)).status).toBe(200);
    } finally {
      proc.kill('SIGTERM');
      await proc.exited;
    }
  });
});

/** The address `svc viz` prints once it listens. */
async function listeningAt(proc: Subprocess): Promise<string> {
  const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
  let err = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`svc viz exited: ${err}`);
    err += new TextDecoder().decode(value);
    const base = /dashboard at (http:\/\/\S+)/.exec(err)?.[1];
    if (base) {
      reader.releaseLock();
      return base;
    }
  }
}

/** A request with the path exactly as written (fetch would resolve the dots first). */
function rawGet(base: string, path: string): Promise<{ status: number; text: string }> {
  const url = new URL(base);
  return new Promise((done, fail) => {
    const sock = connect(Number(url.port), url.hostname, () => sock.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`));
    let text = '';
    sock.on('data', (d) => {
      text += d.toString();
    });
    sock.on('end', () => done({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1]), text }));
    sock.on('error', fail);
  });
}

describe('GET /static/*', () => {
  test('the embedded assets, byte for byte, with their content types', async () => {
    viz = await startViz([ckpt], { cwd: dir });
    const logo = await viz.req('/static/logo.svg');
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/svg+xml');
    expect(await logo.text()).toBe(readFileSync(join(UI, 'static', 'logo.svg'), 'utf8'));
    const script = await viz.req('/static/memory.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toBe(readFileSync(join(UI, 'static', 'memory.js'), 'utf8'));
  });

  test('unknown names are 404, even files that exist beside the assets', async () => {
    viz = await startViz([ckpt], { cwd: dir });
    for (const name of ['nope.css', 'assets.ts', 'memory.d.ts', '__proto__', 'constructor', 'toString', '%2Fetc%2Fpasswd', '%252e%252e%252fapp.ts', '']) {
      const r = await viz.get(`/static/${name}`);
      expect(r.status).toBe(404);
      expect(typeof r.body.error).toBe('string');
    }
  });

  test('traversal, plain or encoded, is refused and reads nothing from disk', async () => {
    viz = await startViz([ckpt], { cwd: dir });
    for (const path of ['/static/..%2f..%2f..%2fetc%2fpasswd', '/static/%2e%2e%2fapp.ts', '/static/%2E%2E%5Cindex.html', '/static/..%5c..%5cetc%5cpasswd', '/static/%E0%A4%A']) {
      const r = await viz.get(path);
      expect([path, r.status]).toEqual([path, 400]);
      expect(r.body.error).toMatch(/static path|malformed percent-encoding/);
    }
    for (const path of ['/static/../../../../etc/passwd', '/static/%2e%2e/%2e%2e/%2e%2e/etc/passwd', '/static/./../app.ts', '/static//etc/passwd']) {
      const r = await rawGet(viz.base, path);
      expect([400, 404]).toContain(r.status);
      expect(r.text).not.toContain('root:');
      expect(r.text).not.toContain('EventSource');
    }
  });
});

describe('GET /memory/*', () => {
  test('the memory inspector page, which loads its embedded script', async () => {
    viz = await startViz([ckpt], { cwd: dir });
    const r = await viz.req('/memory/node_00000001');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await r.text();
    expect(html).toContain('<title>svc memory inspector</title>');
    expect(html).toContain('<script type="module" src="/static/memory.js"></script>');
    const script = await (await viz.req('/static/memory.js')).text();
    // it asks the memory endpoint of the active checkpoint for the node named in the path
    expect(script).toContain('/api/checkpoint/${encodeURIComponent(state.checkpoint_id)}/memory?${query}');
    expect(script).toContain("location.pathname.replace(/^\\/memory\\/?/, '')");
  });
});

describe('GET /codefile', () => {
  let code: string;
  let experiments: string;
  beforeEach(() => {
    code = join(ckpt, 'code');
    mkdirSync(code);
    writeFileSync(join(code, 'main.py'), 'print("<b>hi</b>")\n# </pre><script>alert(1)</script>\nx = 1 & 2\n');
    experiments = join(dir, 'workspace', 'experiments', basename(ckpt), 'node_00000001');
    mkdirSync(experiments, { recursive: true });
    writeFileSync(join(experiments, 'run.py'), 'node code\n');
    writeFileSync(join(dir, 'notes.md'), '# project notes\n');
    writeFileSync(join(outside, 'secret.txt'), 'secret\n');
  });

  const view = (p: string) => viz?.req(`/codefile?path=${encodeURIComponent(p)}`) as Promise<Response>;

  test('a file of the checkpoint: escaped, numbered, under a policy that runs nothing', async () => {
    viz = await startViz([ckpt], { cwd: dir });
    const r = await view('code/main.py');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('content-security-policy')).toBe(CSP);
    const html = await r.text();
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>hi');
    expect(html).toContain('<a class="n" href="#L1">1</a>print(&#34;&#60;b&#62;hi&#60;/b&#62;&#34;)');
    expect(html).toContain('<a class="n" href="#L2">2</a># &#60;/pre&#62;&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(html).toContain('<a class="n" href="#L3">3</a>x = 1 &#38; 2');
  });

  test('absolute paths inside the experiments directory or the checkpoint; the project root is not shown', async () => {
    viz = await startViz([ckpt], { cwd: dir });
    const node = await view(join(experiments, 'run.py'));
    expect(node.status).toBe(200);
    expect(await node.text()).toContain('node code');
    const notes = await view(join(dir, 'notes.md'));
    expect(notes.status).toBe(400);
    expect(await notes.text()).not.toContain('# project notes');
    expect((await view(join(ckpt, 'code', 'main.py'))).status).toBe(200);
  });

  test('paths leading out: 400, plain, encoded, absolute or through a symlink', async () => {
    symlinkSync(join(outside, 'secret.txt'), join(code, 'link.txt'));
    symlinkSync(outside, join(ckpt, 'linkdir'));
    viz = await startViz([ckpt], { cwd: dir });
    const bad = ['../../../secret.txt', 'code/../../other_run/x.py', '/etc/passwd', join(outside, 'secret.txt'), 'code/link.txt', join(code, 'link.txt'), 'linkdir/secret.txt', `${ckpt}/../../../notes.md/../../x`];
    for (const p of bad) {
      const r = await view(p);
      expect(r.status).toBe(400);
      expect(r.headers.get('content-type')).toContain('application/json');
      const body = (await r.json()) as { error: string };
      expect(body.error).toMatch(/outside/);
      expect(JSON.stringify(body)).not.toContain('secret\\n');
    }
    // percent-encoded dots in the query are dots
    const encoded = await viz.get('/codefile?path=%2e%2e%2f%2e%2e%2f%2e%2e%2fsecret.txt');
    expect(encoded.status).toBe(400);
    expect(encoded.body.error).toContain("'../../../secret.txt' is outside");
  });

  test('missing 404, directory 400, over 2 MB 413, binary 415, no path 400', async () => {
    writeFileSync(join(ckpt, 'big.log'), 'x'.repeat(2 * 1024 * 1024 + 1));
    writeFileSync(join(ckpt, 'model.pkl'), Buffer.concat([Buffer.from([0x80, 0x04, 0x95]), Buffer.alloc(100)]));
    viz = await startViz([ckpt], { cwd: dir });
    const cases: [string, number, RegExp][] = [
      ['/codefile?path=code/nope.py', 404, /does not exist/],
      ['/codefile?path=code', 400, /is a directory/],
      ['/codefile?path=big.log', 413, /the viewer shows files up to 2 MB/],
      ['/codefile?path=model.pkl', 415, /is a binary file/],
      ['/codefile', 400, /path/],
      ['/codefile?path=', 400, /no path given/],
    ];
    for (const [path, status, msg] of cases) {
      const r = await viz.get(path);
      expect(r.status).toBe(status);
      expect(r.body.error).toMatch(msg);
    }
  });

  test('no active checkpoint: 409', async () => {
    const empty = join(dir, 'other', 'checkpoints');
    mkdirSync(empty, { recursive: true });
    viz = await startViz([empty], { cwd: dir });
    expect(await viz.get('/codefile?path=notes.md')).toEqual({ status: 409, body: { error: expect.stringContaining('no active checkpoint') } });
  });
});
