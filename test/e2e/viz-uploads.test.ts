import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { removeDir, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';

let dir: string;
let ckpt: string;
let uploads: string;
let viz: Viz;

beforeEach(async () => {
  dir = tempDir();
  const root = join(dir, 'workspace', 'checkpoints');
  mkdirSync(root, { recursive: true });
  ckpt = writeCheckpoint(root, { runId: '20261101120000_uploads', nodes: 2 });
  uploads = join(ckpt, 'uploads');
  viz = await startViz([join(dir, 'workspace')], { cwd: dir });
});
afterEach(async () => {
  await viz.stop();
  removeDir(dir);
});

/** A multipart body written by hand, so file names reach the server byte for byte. */
function multipart(parts: { filename?: string; content: string; field?: string }[]): { body: Uint8Array; type: string } {
  const boundary = '----svc-test-boundary';
  const chunks = parts.map((p) => {
    const disposition = `form-data; name="${p.field ?? 'file'}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}`;
    return `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.filename === undefined ? '' : 'Content-Type: application/octet-stream\r\n'}\r\n${p.content}\r\n`;
  });
  return { body: new TextEncoder().encode(`${chunks.join('')}--${boundary}--\r\n`), type: `multipart/form-data; boundary=${boundary}` };
}

async function upload(parts: { filename?: string; content: string; field?: string }[], target: Viz = viz): Promise<{ status: number; body: any }> {
  const { body, type } = multipart(parts);
  const res = await target.req('/api/upload', { method: 'POST', headers: { 'content-type': type }, body });
  return { status: res.status, body: await res.json() };
}

/** Every path below the temp dir, to show that a refused or sanitised request wrote nothing elsewhere. */
function everything(): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).filter((p) => !p.endsWith('viz_access.jsonl')).sort();
}

describe('POST /api/upload', () => {
  test('saves every file field into uploads/ of the active checkpoint', async () => {
    const form = new FormData();
    form.append('first', new Blob(['a,b\n1,2\n']), 'data.csv');
    form.append('second', new Blob([new Uint8Array([0, 1, 2, 255])]), 'weights.bin');
    form.append('note', 'a plain field is not a file');
    const res = await viz.req('/api/upload', { method: 'POST', body: form });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      ok: true,
      files: [
        { name: 'data.csv', path: 'uploads/data.csv', size: 8 },
        { name: 'weights.bin', path: 'uploads/weights.bin', size: 4 },
      ],
    });
    expect(readFileSync(join(uploads, 'data.csv'), 'utf8')).toBe('a,b\n1,2\n');
    expect([...readFileSync(join(uploads, 'weights.bin'))]).toEqual([0, 1, 2, 255]);
    expect(readdirSync(uploads).sort()).toEqual(['data.csv', 'weights.bin']);
  });

  test('an existing name is replaced', async () => {
    expect((await upload([{ filename: 'notes.txt', content: 'old' }])).status).toBe(200);
    const r = await upload([{ filename: 'notes.txt', content: 'new and longer' }]);
    expect(r.body.files).toEqual([{ name: 'notes.txt', path: 'uploads/notes.txt', size: 14 }]);
    expect(readFileSync(join(uploads, 'notes.txt'), 'utf8')).toBe('new and longer');
    expect(readdirSync(uploads)).toEqual(['notes.txt']);
  });

  test.each([
    ['../x', 'x'],
    ['..%2fx', '%2fx'],
    ['/etc/passwd', 'passwd'],
    ['C:\\Users\\me\\report.pdf', 'report.pdf'],
    ['..\\..\\evil.sh', 'evil.sh'],
    ['.env', 'env'],
    ['tab\there.txt', 'tabhere.txt'],
    ['a..b....c', 'a.b.c'],
  ])('the name %j is stored as %j, inside uploads/', async (given, stored) => {
    const before = everything();
    const r = await upload([{ filename: given, content: 'payload' }]);
    expect(r).toEqual({ status: 200, body: { ok: true, files: [{ name: stored, path: `uploads/${stored}`, size: 7 }] } });
    expect(readFileSync(join(uploads, stored), 'utf8')).toBe('payload');
    expect(everything()).toEqual([...new Set([...before, 'workspace/checkpoints/20261101120000_uploads/uploads', `workspace/checkpoints/20261101120000_uploads/uploads/${stored}`])].sort());
  });

  test('a NUL in the name never reaches the file system', async () => {
    const before = everything();
    const r = await upload([{ filename: 'a\u0000b.txt', content: 'payload' }]);
    expect(r.status).toBe(200);
    // Bun's form parser ends the name at the NUL; either way no NUL and no path survives
    const [saved] = r.body.files;
    expect(['a', 'ab.txt']).toContain(saved.name);
    expect(readFileSync(join(uploads, saved.name), 'utf8')).toBe('payload');
    expect(everything().filter((p) => !before.includes(p))).toEqual(['workspace/checkpoints/20261101120000_uploads/uploads', `workspace/checkpoints/20261101120000_uploads/uploads/${saved.name}`]);
  });

  test('a long name is cut to 200 characters, keeping its extension', async () => {
    const r = await upload([{ filename: `${'n'.repeat(300)}.csv`, content: 'x' }]);
    expect(r.status).toBe(200);
    expect(r.body.files[0].name).toBe(`${'n'.repeat(196)}.csv`);
    expect(existsSync(join(uploads, `${'n'.repeat(196)}.csv`))).toBe(true);
  });

  test.each(['..', '...', '/', '../', '\u0001\u0002', ' . '])('the name %j leaves nothing usable: 400, nothing written', async (name) => {
    const r = await upload([{ filename: 'fine.txt', content: 'ok' }, { filename: name, content: 'bad' }]);
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('is not a usable file name');
    expect(existsSync(uploads)).toBe(false);
  });

  test('over the upload limit: 413, nothing left in uploads/', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(100 * 1024 * 1024 + 1)]), 'huge.bin');
    const res = await viz.req('/api/upload', { method: 'POST', body: form });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toContain('too large');
    expect(existsSync(uploads)).toBe(false);
  });

  test('a body that is not multipart is 400', async () => {
    const asJson = await viz.post('/api/upload', { name: 'x', content: 'y' });
    expect(asJson.status).toBe(400);
    expect(asJson.body.error).toContain('expected a multipart/form-data body, got application/json');
    const plain = await viz.req('/api/upload', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expect(plain.status).toBe(400);
    const none = await viz.req('/api/upload', { method: 'POST', body: new Uint8Array([1, 2, 3]) });
    expect(none.status).toBe(400);
    expect(((await none.json()) as { error: string }).error).toContain('multipart/form-data');
    expect(existsSync(uploads)).toBe(false);
  });

  test('a malformed multipart body is 400', async () => {
    const res = await viz.req('/api/upload', { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=zzz' }, body: 'not a form at all' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain('multipart');
    expect(existsSync(uploads)).toBe(false);
  });

  test('a form without a file field is 400', async () => {
    const r = await upload([{ field: 'note', content: 'just text' }]);
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('no file in the upload');
  });

  test('uploads/ as a symlink out of the checkpoint is refused', async () => {
    const outside = join(dir, 'outside');
    mkdirSync(outside);
    symlinkSync(outside, uploads);
    const r = await upload([{ filename: 'x.txt', content: 'x' }]);
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('is outside');
    expect(readdirSync(outside)).toEqual([]);
  });

  test('a directory of the same name is not replaced: 409', async () => {
    mkdirSync(join(uploads, 'data'), { recursive: true });
    writeFileSync(join(uploads, 'data', 'keep.txt'), 'keep');
    const r = await upload([{ filename: 'data', content: 'x' }]);
    expect(r.status).toBe(409);
    expect(r.body.error).toContain('uploads/data is a directory');
    expect(readFileSync(join(uploads, 'data', 'keep.txt'), 'utf8')).toBe('keep');
  });

  test('?id= names the checkpoint, whichever is active; an unknown or escaping id is 404 and nothing is written', async () => {
    const other = writeCheckpoint(join(dir, 'workspace', 'checkpoints'), { runId: '20261101130000_other', nodes: 1 });
    const { body, type } = multipart([{ filename: 'seeds.txt', content: '7' }]);
    const to = (id: string) => viz.req(`/api/upload?id=${encodeURIComponent(id)}`, { method: 'POST', headers: { 'content-type': type }, body });
    expect((await to('20261101130000_other')).status).toBe(200);
    expect(readFileSync(join(other, 'uploads', 'seeds.txt'), 'utf8')).toBe('7');
    expect(existsSync(join(uploads, 'seeds.txt'))).toBe(false);
    for (const id of ['20991231000000_missing', '../checkpoints/20261101130000_other', '..']) {
      const res = await to(id);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: string }).error).toBe('not found');
    }
    expect(readdirSync(join(other, 'uploads'))).toEqual(['seeds.txt']);
    expect(existsSync(uploads)).toBe(false);
  });

  test('without an active checkpoint: 409', async () => {
    const empty = tempDir();
    mkdirSync(join(empty, 'workspace', 'checkpoints'), { recursive: true });
    const other = await startViz([join(empty, 'workspace')], { cwd: empty });
    try {
      const r = await upload([{ filename: 'x.txt', content: 'x' }], other);
      expect(r.status).toBe(409);
      expect(r.body.error).toStartWith('no active checkpoint');
      const d = await other.post('/api/upload/delete', { name: 'x.txt' });
      expect(d.status).toBe(409);
    } finally {
      await other.stop();
      removeDir(empty);
    }
  });
});

describe('POST /api/upload/delete', () => {
  beforeEach(() => {
    mkdirSync(join(uploads, 'folder'), { recursive: true });
    writeFileSync(join(uploads, 'data.csv'), 'a,b\n');
    writeFileSync(join(uploads, 'folder', 'inner.txt'), 'inner');
    writeFileSync(join(ckpt, 'x'), 'beside the uploads, not one of them');
  });

  test('removes an uploaded file', async () => {
    const r = await viz.post('/api/upload/delete', { name: 'data.csv' });
    expect(r).toEqual({ status: 200, body: { ok: true, name: 'data.csv', path: 'uploads/data.csv' } });
    expect(existsSync(join(uploads, 'data.csv'))).toBe(false);
    expect(existsSync(join(uploads, 'folder', 'inner.txt'))).toBe(true);
  });

  test('a missing file is 404', async () => {
    const r = await viz.post('/api/upload/delete', { name: 'nope.csv' });
    expect(r).toEqual({ status: 404, body: { error: 'uploads/nope.csv does not exist' } });
  });

  test.each(['../x', '..%2fx', '/etc/passwd', 'folder/inner.txt', 'a\u0000b', '..', '.hidden', '', '  '])('the name %j is 400 and removes nothing', async (name) => {
    const before = everything();
    const r = await viz.post('/api/upload/delete', { name });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('is not a file name in uploads/');
    expect(everything()).toEqual(before);
    expect(readFileSync(join(ckpt, 'x'), 'utf8')).toContain('beside');
  });

  test('a directory is refused', async () => {
    const r = await viz.post('/api/upload/delete', { name: 'folder' });
    expect(r.status).toBe(409);
    expect(r.body.error).toContain('is a directory');
    expect(existsSync(join(uploads, 'folder', 'inner.txt'))).toBe(true);
  });

  test('a symlink is removed itself, never its target', async () => {
    symlinkSync(join(ckpt, 'x'), join(uploads, 'link.txt'));
    const r = await viz.post('/api/upload/delete', { name: 'link.txt' });
    expect(r.status).toBe(200);
    expect(existsSync(join(uploads, 'link.txt'))).toBe(false);
    expect(readFileSync(join(ckpt, 'x'), 'utf8')).toContain('beside');
  });

  test('malformed JSON and wrong types are 400', async () => {
    const bad = await viz.req('/api/upload/delete', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toContain('malformed request body');
    for (const body of [{}, { name: 5 }, { name: ['data.csv'] }, { name: null }]) {
      const r = await viz.post('/api/upload/delete', body);
      expect(r.status).toBe(400);
      expect(r.body.error).toStartWith('body');
    }
    expect(existsSync(join(uploads, 'data.csv'))).toBe(true);
  });
});

describe('how many files one upload may hold', () => {
  test('20,000 tiny files in one request: 413, and uploads/ is not created', async () => {
    const parts = Array.from({ length: 20_000 }, (_, i) => ({ filename: `f${i}.txt`, content: 'x' }));
    const { status, body } = await upload(parts);
    expect(status).toBe(413);
    expect(body.error).toContain('at most 1000');
    expect(existsSync(uploads)).toBe(false);
  });

  test('1,000 files is still one upload', async () => {
    const parts = Array.from({ length: 1000 }, (_, i) => ({ filename: `g${i}.txt`, content: String(i) }));
    const { status, body } = await upload(parts);
    expect(status).toBe(200);
    expect(body.files).toHaveLength(1000);
    expect(readdirSync(uploads)).toHaveLength(1000);
  });
});
