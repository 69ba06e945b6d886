import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { removeDir, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';

const ID = '20260101000000_TestExp';
const OTHER = '20250101000000_NoPaper';
const PKL = new Uint8Array([0x80, 0x04, 0x95, ...new Array(100).fill(0)]);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, ...new Array(50).fill(0)]);
const GOOD_TEX = '\\documentclass{article}\n\\begin{document}\nHello, paper.\n\\end{document}\n';
const BROKEN_TEX = '\\documentclass{article}\n\\begin{document}\n\\undefinedmacro\n\\end{document}\n';
const LIMIT = 10 * 1024 * 1024;

let dir: string;
let ws: string;
let ck: string;
let viz: Viz;

function put(root: string, files: Record<string, string | Uint8Array>): void {
  for (const [rel, data] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), data);
  }
}

/** The reference implementation's "explorer checkpoint", next to a checkpoint without a paper and a node's work directory. */
beforeAll(async () => {
  dir = tempDir();
  ws = join(dir, 'workspace');
  ck = writeCheckpoint(join(ws, 'checkpoints'), { runId: ID, nodes: 3 });
  put(ck, {
    'results.json': '{"score": 0.5}',
    'code/main.py': "print('hello')\n",
    'code/utils.py': 'def helper(): pass\n',
    'model.pkl': PKL,
    'paper/full_paper.tex': GOOD_TEX,
    'paper/figures/fig_01.png': PNG,
    'paper/figures/diagram.svg': '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    '__pycache__/main.cpython-311.pyc': new Uint8Array([0x55, 0x0d, 0, 0]),
    '.git/config': '[core]\n',
    'broken/main.tex': BROKEN_TEX,
    'big.bin': new Uint8Array(LIMIT + 1),
  });
  writeCheckpoint(join(ws, 'checkpoints'), { runId: OTHER, nodes: 1 });
  put(join(ws, 'experiments', ID, 'node_abc'), {
    'data.csv': 'a,b\n1,2\n',
    'script.py': 'print(1)\n',
    'model.pkl': PKL,
    'tree.json': '{}',
    'node_report.json': '{}',
    'experiment.md': '# goal\n',
    'ari.log': 'log\n',
    'run.log': 'log\n',
    'memory_access.2.jsonl': '{}\n',
    'out/result.txt': 'ok\n',
  });
  writeFileSync(join(dir, 'outside.txt'), 'outside the checkpoint');
  symlinkSync(join(dir, 'outside.txt'), join(ck, 'leak.txt'));
  symlinkSync(dir, join(ck, 'leakdir'));
  viz = await startViz([ws], { cwd: dir });
});
afterAll(async () => {
  await viz.stop();
  removeDir(dir);
});

const api = (path: string) => `/api/checkpoint/${ID}${path}`;

describe('GET /api/checkpoint/:id/files', () => {
  test('every file, typed, without .git and __pycache__', async () => {
    const { status, body } = await viz.get(api('/files'));
    expect(status).toBe(200);
    expect(body.truncated).toBe(false);
    const byPath = Object.fromEntries(body.files.map((f: { path: string }) => [f.path, f]));
    expect(byPath['code/main.py']).toMatchObject({ size: 15, type: 'text' });
    expect(byPath['model.pkl']).toMatchObject({ size: 103, type: 'binary' });
    expect(byPath['paper/figures/fig_01.png']).toMatchObject({ size: 54, type: 'image' });
    expect(byPath['paper/full_paper.tex']).toMatchObject({ type: 'text' });
    expect(typeof byPath['results.json'].mtime).toBe('number');
    for (const p of Object.keys(byPath)) expect(p).not.toMatch(/^(\.git|__pycache__|leak)/);
  });

  test('unknown checkpoint: 404', async () => {
    expect(await viz.get('/api/checkpoint/20990101000000_nope/files')).toEqual({ status: 404, body: { error: 'not found' } });
    expect((await viz.get('/api/checkpoint/..%2F..%2Fetc/files')).status).toBe(404);
  });
});

describe('GET /api/checkpoint/:id/file', () => {
  test('text as utf8, binary as base64', async () => {
    expect(await viz.get(api('/file?path=code/main.py'))).toEqual({ status: 200, body: { path: 'code/main.py', size: 15, encoding: 'utf8', content: "print('hello')\n" } });
    const pkl = await viz.get(api('/file?path=model.pkl'));
    expect(pkl.body).toMatchObject({ path: 'model.pkl', size: 103, encoding: 'base64' });
    expect(new Uint8Array(Buffer.from(pkl.body.content, 'base64'))).toEqual(PKL);
    const png = await viz.get(api('/file?path=paper%2Ffigures%2Ffig_01.png'));
    expect(new Uint8Array(Buffer.from(png.body.content, 'base64'))).toEqual(PNG);
  });

  test.each([
    ['../', '../../outside.txt', 400, 'is outside'],
    ['%2e%2e/', '%2e%2e/%2e%2e/outside.txt', 400, 'is outside'],
    ['an absolute path', encodeURIComponent('/etc/passwd'), 400, 'is absolute'],
    ['a symlink out', 'leak.txt', 400, 'is outside'],
    ['a path through a linked directory out', 'leakdir/outside.txt', 400, 'is outside'],
    ['a missing file', 'nope.txt', 404, "no file 'nope.txt'"],
    ['a directory', 'code', 400, "'code' is a directory"],
    ['an empty path', '', 400, 'no path given'],
  ])('%s: %d', async (_what, path, status, message) => {
    const res = await viz.get(api(`/file?path=${path}`));
    expect(res.status).toBe(status);
    expect(res.body.error).toContain(message);
  });

  test('no path parameter: 400; unknown checkpoint: 404', async () => {
    const res = await viz.get(api('/file'));
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('query.path');
    expect((await viz.get('/api/checkpoint/nope/file?path=code/main.py')).status).toBe(404);
  });

  test('over the size cap: 413 naming the size, the limit and file/raw', async () => {
    const res = await viz.get(api('/file?path=big.bin'));
    expect(res.status).toBe(413);
    expect(res.body.error).toContain(`'big.bin' is 10.0 MB (${LIMIT + 1} bytes), over the 10.0 MB (${LIMIT} bytes) limit`);
    expect(res.body.error).toContain(`/api/checkpoint/${ID}/file/raw?path=big.bin`);
  });
});

describe('GET /api/checkpoint/:id/file/raw', () => {
  test('bytes streamed with a type from the extension, no size cap', async () => {
    const png = await viz.req(api('/file/raw?path=paper/figures/fig_01.png'));
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await png.arrayBuffer())).toEqual(PNG);
    const tex = await viz.req(api('/file/raw?path=paper/full_paper.tex'));
    expect(tex.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await tex.text()).toBe(GOOD_TEX);
    const pkl = await viz.req(api('/file/raw?path=model.pkl'));
    expect(pkl.headers.get('content-type')).toBe('application/octet-stream');
    const big = await viz.req(api('/file/raw?path=big.bin'));
    expect(big.status).toBe(200);
    expect((await big.arrayBuffer()).byteLength).toBe(LIMIT + 1);
  });

  test('SVG is served sandboxed', async () => {
    const svg = await viz.req(api('/file/raw?path=paper/figures/diagram.svg'));
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.headers.get('content-security-policy')).toBe('sandbox');
    await svg.arrayBuffer();
  });

  test('unknown checkpoint: 404', async () => {
    expect(await viz.get('/api/checkpoint/nope/file/raw?path=model.pkl')).toEqual({ status: 404, body: { error: 'not found' } });
  });

  test.each([
    ['../../outside.txt', 400],
    ['%2e%2e/%2e%2e/outside.txt', 400],
    ['leak.txt', 400],
    [encodeURIComponent('/etc/hostname'), 400],
    ['code', 400],
    ['nope.pdf', 404],
  ])('%s: %d as JSON', async (path, status) => {
    const res = await viz.get(api(`/file/raw?path=${path}`));
    expect(res.status).toBe(status);
    expect(typeof res.body.error).toBe('string');
  });
});

describe('GET /api/checkpoint/:id/filetree', () => {
  const names = (node: { children?: { name: string }[] }) => (node.children ?? []).map((c) => c.name);

  test('the checkpoint as a tree', async () => {
    const { status, body } = await viz.get(api('/filetree'));
    expect(status).toBe(200);
    expect(body).toMatchObject({ name: ID, path: '', type: 'dir' });
    expect(names(body)).toEqual(expect.arrayContaining(['code', 'paper', 'tree.json', 'model.pkl']));
    expect(names(body)).not.toContain('.git');
    expect(names(body)).not.toContain('leak.txt');
    const code = body.children.find((c: { name: string }) => c.name === 'code');
    expect(code).toEqual({
      name: 'code',
      path: 'code',
      type: 'dir',
      size: 34,
      children: [
        { name: 'main.py', path: 'code/main.py', type: 'file', size: 15 },
        { name: 'utils.py', path: 'code/utils.py', type: 'file', size: 19 },
      ],
    });
  });

  test('a node work directory, without the run records', async () => {
    const { status, body } = await viz.get(api('/filetree?node_id=node_abc'));
    expect(status).toBe(200);
    expect(body).toMatchObject({ name: 'node_abc', path: '', type: 'dir' });
    expect(names(body)).toEqual(['out', 'data.csv', 'model.pkl', 'script.py']);
  });

  test('bad node ids: 400; a node without a directory: 404; unknown checkpoint: 404', async () => {
    for (const bad of ['..%2F..%2Fcheckpoints', 'a%2Fb', '..', '']) {
      const res = await viz.get(api(`/filetree?node_id=${bad}`));
      expect(res.status).toBe(400);
      expect(res.body.error).toContain('is not a node id');
    }
    const missing = await viz.get(api('/filetree?node_id=node_zzz'));
    expect(missing.status).toBe(404);
    expect(missing.body.error).toContain('node node_zzz has no work directory');
    expect((await viz.get('/api/checkpoint/nope/filetree')).status).toBe(404);
  });
});

describe('GET /api/checkpoint/:id/filecontent', () => {
  test('several files at once, from paths= and repeated path=; per-file errors beside them', async () => {
    const { status, body } = await viz.get(api('/filecontent?paths=code/main.py,model.pkl&path=nope.txt&path=big.bin&path=code'));
    expect(status).toBe(200);
    expect(body.files['code/main.py']).toEqual({ size: 15, encoding: 'utf8', content: "print('hello')\n" });
    expect(body.files['model.pkl']).toMatchObject({ size: 103, encoding: 'base64' });
    expect(body.files['nope.txt']).toEqual({ error: "no file 'nope.txt' in this checkpoint" });
    expect(body.files['big.bin'].error).toContain('over the 10.0 MB');
    expect(body.files.code.error).toContain('is a directory');
  });

  test('from a node work directory', async () => {
    const { status, body } = await viz.get(api('/filecontent?node_id=node_abc&paths=data.csv,out/result.txt'));
    expect(status).toBe(200);
    expect(body.files).toEqual({
      'data.csv': { size: 8, encoding: 'utf8', content: 'a,b\n1,2\n' },
      'out/result.txt': { size: 3, encoding: 'utf8', content: 'ok\n' },
    });
  });

  test('any path leaving the root refuses the whole request', async () => {
    for (const q of ['paths=code/main.py,../../outside.txt', 'path=code/main.py&path=%2e%2e/%2e%2e/outside.txt', 'path=leak.txt', `path=${encodeURIComponent('/etc/passwd')}`]) {
      const res = await viz.get(api(`/filecontent?${q}`));
      expect(res.status).toBe(400);
      expect(res.body.files).toBeUndefined();
    }
  });

  test('no paths, too many paths, bad node id, unknown checkpoint', async () => {
    expect((await viz.get(api('/filecontent'))).status).toBe(400);
    const many = await viz.get(api(`/filecontent?paths=${Array.from({ length: 51 }, (_, i) => `f${i}`).join(',')}`));
    expect(many.status).toBe(400);
    expect(many.body.error).toContain('at most 50');
    expect((await viz.get(api('/filecontent?node_id=..&path=a'))).status).toBe(400);
    expect((await viz.get(api('/filecontent?node_id=node_zzz&path=a'))).status).toBe(404);
    expect((await viz.get('/api/checkpoint/nope/filecontent?path=a')).status).toBe(404);
  });
});

describe('POST /api/checkpoint/file/save and /delete', () => {
  test('saves text into the active checkpoint, creating directories', async () => {
    const res = await viz.post('/api/checkpoint/file/save', { path: 'notes/today.md', content: '# Today\n' });
    expect(res).toEqual({ status: 200, body: { ok: true, path: 'notes/today.md', size: 8 } });
    expect(readFileSync(join(ck, 'notes', 'today.md'), 'utf8')).toBe('# Today\n');
  });

  test('saves base64 bytes into a named checkpoint and reads them back', async () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    const res = await viz.post('/api/checkpoint/file/save', { id: OTHER, path: 'data/blob.bin', content: Buffer.from(bytes).toString('base64'), encoding: 'base64' });
    expect(res).toEqual({ status: 200, body: { ok: true, path: 'data/blob.bin', size: 5 } });
    const back = await viz.get(`/api/checkpoint/${OTHER}/file?path=data/blob.bin`);
    expect(new Uint8Array(Buffer.from(back.body.content, 'base64'))).toEqual(bytes);
  });

  test('run records: 400 and unchanged', async () => {
    const before = readFileSync(join(ck, 'tree.json'), 'utf8');
    for (const path of ['tree.json', './tree.json', 'code/../cost_summary.json', 'memory_access.jsonl', 'results.json']) {
      const res = await viz.post('/api/checkpoint/file/save', { path, content: '{}' });
      expect(res.status).toBe(400);
      expect(res.body.error).toContain('is a run record');
    }
    const del = await viz.post('/api/checkpoint/file/delete', { path: 'tree.json' });
    expect(del.status).toBe(400);
    expect(del.body.error).toContain('is a run record');
    expect(readFileSync(join(ck, 'tree.json'), 'utf8')).toBe(before);
    expect(readFileSync(join(ck, 'results.json'), 'utf8')).toBe('{"score": 0.5}');
    expect(existsSync(join(ck, 'memory_access.jsonl'))).toBe(false);
  });

  test.each([
    ['../', { path: '../../outside.txt', content: 'x' }, 400],
    ['%2e%2e/ is a literal name in a body, not a parent', { path: '%2e%2e/x.txt', content: 'x' }, 200],
    ['absolute', { path: '/tmp/svc-save-test.txt', content: 'x' }, 400],
    ['symlink out', { path: 'leak.txt', content: 'x' }, 400],
    ['through a linked directory out', { path: 'leakdir/new.txt', content: 'x' }, 400],
    ['a directory', { path: 'code', content: 'x' }, 400],
    ['wrong type of content', { path: 'a.txt', content: 5 }, 400],
    ['wrong type of path', { path: ['a.txt'], content: 'x' }, 400],
    ['missing content', { path: 'a.txt' }, 400],
    ['unknown encoding', { path: 'a.txt', content: 'x', encoding: 'hex' }, 400],
    ['invalid base64', { path: 'a.txt', content: '***', encoding: 'base64' }, 400],
    ['unknown checkpoint', { id: 'nope', path: 'a.txt', content: 'x' }, 404],
    ['a checkpoint id that is a path', { id: '../checkpoints', path: 'a.txt', content: 'x' }, 404],
  ])('save, %s: %d', async (_what, body, status) => {
    const res = await viz.post('/api/checkpoint/file/save', body);
    expect(res.status).toBe(status);
    if (status !== 200) expect(typeof res.body.error).toBe('string');
  });

  test('nothing was written outside the checkpoint', () => {
    expect(readFileSync(join(dir, 'outside.txt'), 'utf8')).toBe('outside the checkpoint');
    expect(existsSync(join(dir, 'new.txt'))).toBe(false);
    expect(existsSync('/tmp/svc-save-test.txt')).toBe(false);
    expect(existsSync(join(ck, 'a.txt'))).toBe(false);
    expect(existsSync(join(ck, '%2e%2e', 'x.txt'))).toBe(true);
  });

  test('malformed JSON: 400', async () => {
    for (const path of ['/api/checkpoint/file/save', '/api/checkpoint/file/delete', '/api/checkpoint/compile']) {
      const res = await viz.req(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"path": "a.txt",' });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toContain('malformed request body');
    }
  });

  test('delete removes one file', async () => {
    writeFileSync(join(ck, 'scratch.txt'), 'x');
    expect(await viz.post('/api/checkpoint/file/delete', { path: 'scratch.txt' })).toEqual({ status: 200, body: { ok: true, path: 'scratch.txt' } });
    expect(existsSync(join(ck, 'scratch.txt'))).toBe(false);
  });

  test.each([
    ['missing', { path: 'scratch-none.txt' }, 404],
    ['a directory', { path: 'paper' }, 400],
    ['../', { path: '../../outside.txt' }, 400],
    ['absolute', { path: '/etc/hostname' }, 400],
    ['symlink out', { path: 'leakdir/outside.txt' }, 400],
    ['wrong type', { path: 5 }, 400],
    ['unknown checkpoint', { id: 'nope', path: 'code/main.py' }, 404],
  ])('delete, %s: %d', async (_what, body, status) => {
    const res = await viz.post('/api/checkpoint/file/delete', body);
    expect(res.status).toBe(status);
    expect(typeof res.body.error).toBe('string');
    expect(existsSync(join(ck, 'paper', 'full_paper.tex'))).toBe(true);
    expect(existsSync(join(dir, 'outside.txt'))).toBe(true);
  });
});

describe('POST /api/checkpoint/compile', () => {
  test('compiles the paper draft of the active checkpoint into a PDF', async () => {
    const { status, body } = await viz.post('/api/checkpoint/compile', {});
    expect(status).toBe(200);
    expect(body.ok).toBe(true);
    expect(body.pdf).toBe('paper/full_paper.pdf');
    expect(Array.isArray(body.log_tail)).toBe(true);
    expect(readFileSync(join(ck, 'paper', 'full_paper.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
  });

  test('a LaTeX error: 422 with the first ! line and the log tail', async () => {
    const { status, body } = await viz.post('/api/checkpoint/compile', { id: ID, path: 'broken/main.tex' });
    expect(status).toBe(422);
    expect(body.error).toBe('LaTeX failed: Undefined control sequence. (line 3)');
    expect(body.log_tail.join('\n')).toContain('\\undefinedmacro');
    expect(existsSync(join(ck, 'broken', 'main.pdf'))).toBe(false);
  });

  test.each([
    ['no paper in the checkpoint', { id: OTHER }, 404, 'none of paper/full_paper.tex, full_paper.tex, paper/main.tex exists'],
    ['not a .tex', { path: 'code/main.py' }, 400, 'is not a .tex file'],
    ['a missing .tex', { path: 'paper/none.tex' }, 404, "no file 'paper/none.tex'"],
    ['../', { path: '../../x.tex' }, 400, 'is outside'],
    ['wrong type', { path: 1 }, 400, 'body.path'],
    ['unknown checkpoint', { id: 'nope' }, 404, 'not found'],
  ])('%s: %d', async (_what, body, status, message) => {
    const res = await viz.post('/api/checkpoint/compile', body);
    expect(res.status).toBe(status);
    expect(res.body.error).toContain(message);
  });
});

describe('another dashboard', () => {
  test('no active checkpoint: writes without an id are 409, with an id they work', async () => {
    const other = tempDir();
    try {
      const root = join(other, 'checkpoints');
      const kept = writeCheckpoint(root, { runId: '20260101000000_kept', nodes: 1 });
      const gone = writeCheckpoint(root, { runId: '20260201000000_gone', nodes: 1 });
      const v = await startViz([other], { cwd: other });
      try {
        rmSync(gone, { recursive: true });
        for (const [path, body] of [
          ['/api/checkpoint/file/save', { path: 'a.txt', content: 'x' }],
          ['/api/checkpoint/file/delete', { path: 'experiment.md' }],
          ['/api/checkpoint/compile', {}],
        ] as const) {
          const res = await v.post(path, body);
          expect(res.status).toBe(409);
          expect(res.body.error).toContain('no active checkpoint');
        }
        expect(existsSync(join(kept, 'experiment.md'))).toBe(true);
        expect((await v.post('/api/checkpoint/file/save', { id: '20260101000000_kept', path: 'a.txt', content: 'x' })).status).toBe(200);
        expect(readFileSync(join(kept, 'a.txt'), 'utf8')).toBe('x');
      } finally {
        await v.stop();
      }
    } finally {
      removeDir(other);
    }
  });

  test('latexmk not on PATH: 503 naming it and how to install it', async () => {
    const v = await startViz([ws], { cwd: dir, env: { PATH: '/nonexistent' } });
    try {
      const res = await v.post('/api/checkpoint/compile', { id: ID, path: 'paper/full_paper.tex' });
      expect(res.status).toBe(503);
      expect(res.body.error).toBe('latexmk is not installed (not found on PATH) (install it: apt-get install latexmk texlive-latex-base)');
    } finally {
      await v.stop();
    }
  });
});
