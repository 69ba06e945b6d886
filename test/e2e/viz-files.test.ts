// The checkpoint file API, reading: list, inline and raw content, tree, batch.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { api, type Explorer, GOOD_TEX, ID, LIMIT, PKL, PNG, startExplorer } from '../support/explorer-checkpoint.ts';
import type { Viz } from '../support/viz.ts';

let viz: Viz;
let explorer: Explorer;
beforeAll(async () => {
  explorer = await startExplorer();
  viz = explorer.viz;
});
afterAll(() => explorer.stop());

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
