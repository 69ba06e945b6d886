// The checkpoint file API, writing: save, delete and compiling the paper.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Explorer, ID, OTHER, startExplorer } from '../support/explorer-checkpoint.ts';
import { writeCheckpoint } from '../support/checkpoint.ts';
import { removeDir, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';
import { lacks } from '../support/components.ts';

let dir: string;
let ws: string;
let ck: string;
let viz: Viz;
let explorer: Explorer;
beforeAll(async () => {
  explorer = await startExplorer();
  ({ dir, ws, ck, viz } = explorer);
});
afterAll(() => explorer.stop());

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
  test.skipIf(lacks('latex'))('compiles the paper draft of the active checkpoint into a PDF', async () => {
    const { status, body } = await viz.post('/api/checkpoint/compile', {});
    expect(status).toBe(200);
    expect(body.ok).toBe(true);
    expect(body.pdf).toBe('paper/full_paper.pdf');
    expect(Array.isArray(body.log_tail)).toBe(true);
    expect(readFileSync(join(ck, 'paper', 'full_paper.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
  });

  test.skipIf(lacks('latex'))('a LaTeX error: 422 with the first ! line and the log tail', async () => {
    const { status, body } = await viz.post('/api/checkpoint/compile', { id: ID, path: 'broken/main.tex' });
    expect(status).toBe(422);
    expect(body.error).toBe('LaTeX failed at main.tex:3: ! Undefined control sequence. (TeX stopped at: \\undefinedmacro)');
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
