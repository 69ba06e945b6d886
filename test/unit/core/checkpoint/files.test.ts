import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isNodeMetaFile, nodeWorkDir } from '../../../../src/core/checkpoint/files-node.ts';
import { fileTree, type TreeNode } from '../../../../src/core/checkpoint/files-tree.ts';
import { listCheckpointFiles } from '../../../../src/core/checkpoint/files.ts';
import { InputError, NotFoundError } from '../../../../src/core/errors.ts';
import { writeCheckpoint } from '../../../support/checkpoint.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

let ws: string;
let ck: string;
beforeEach(() => {
  ws = tempDir();
  ck = writeCheckpoint(join(ws, 'checkpoints'), { runId: '20260101000000_TestExp', nodes: 2 });
  const files: Record<string, string | Uint8Array> = {
    'results.json': '{"score": 0.5}',
    'code/main.py': "print('hello')\n",
    'code/utils.py': 'def helper(): pass\n',
    'model.pkl': new Uint8Array([0x80, 0x04, 0x95, ...new Array(100).fill(0)]),
    'paper/full_paper.tex': '\\documentclass{article}\n',
    'paper/figures/fig_01.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, ...new Array(50).fill(0)]),
    'paper/full_paper.pdf': '%PDF-1.5\n',
    '__pycache__/main.cpython-311.pyc': new Uint8Array([1, 2, 0]),
    '.git/config': '[core]\n',
    'node_modules/x/index.js': '',
    '.env': 'OPENAI_API_KEY=sk-secret\n',
    '.results.json.123.abc.tmp': '{}',
    'latin1.txt': new Uint8Array([0x63, 0x61, 0x66, 0xe9]),
  };
  for (const [rel, data] of Object.entries(files)) {
    mkdirSync(join(ck, rel, '..'), { recursive: true });
    writeFileSync(join(ck, rel), data);
  }
});
afterEach(() => removeDir(ws));

describe('listCheckpointFiles', () => {
  test('every file, recursively, typed by extension and content; tooling, temp files and secrets left out', () => {
    const { files, truncated } = listCheckpointFiles(ck);
    expect(truncated).toBe(false);
    const byPath = Object.fromEntries(files.map((f) => [f.path, f]));
    expect(Object.keys(byPath).sort()).toEqual(
      [
        'code/main.py',
        'code/utils.py',
        'cost_summary.json',
        'experiment.md',
        'idea.json',
        'latin1.txt',
        'model.pkl',
        'paper/figures/fig_01.png',
        'paper/full_paper.pdf',
        'paper/full_paper.tex',
        'results.json',
        'tree.json',
      ].sort(),
    );
    expect(byPath['code/main.py']).toMatchObject({ size: 15, type: 'text' });
    expect(byPath['model.pkl']).toMatchObject({ size: 103, type: 'binary' });
    expect(byPath['latin1.txt']?.type).toBe('binary');
    expect(byPath['paper/figures/fig_01.png']?.type).toBe('image');
    expect(byPath['paper/full_paper.pdf']?.type).toBe('pdf');
    const mtime = byPath['results.json']?.mtime ?? 0;
    // seconds since the epoch, not milliseconds
    expect(Math.abs(mtime - Date.now() / 1000)).toBeLessThan(3600);
  });

  test('a character cut by the end of the sniffed sample still counts as text', () => {
    writeFileSync(join(ck, 'long.md'), `${'a'.repeat(8191)}é and more`);
    expect(listCheckpointFiles(ck).files.find((f) => f.path === 'long.md')?.type).toBe('text');
  });

  test('symlinks: a file inside is listed, anything leading out is not, linked directories are not entered', () => {
    writeFileSync(join(ws, 'outside.txt'), 'secret');
    symlinkSync(join(ws, 'outside.txt'), join(ck, 'out-link.txt'));
    symlinkSync(ws, join(ck, 'out-dir'));
    symlinkSync(join(ck, 'code', 'main.py'), join(ck, 'main-link.py'));
    symlinkSync(ck, join(ck, 'code', 'loop'));
    symlinkSync(join(ck, 'missing'), join(ck, 'dangling'));
    const paths = listCheckpointFiles(ck).files.map((f) => f.path);
    expect(paths).toContain('main-link.py');
    for (const p of paths) expect(p).not.toMatch(/out-link|out-dir|loop|dangling/);
  });

  test('stops at the cap and says so', () => {
    const { files, truncated } = listCheckpointFiles(ck, 3);
    expect(files).toHaveLength(3);
    expect(truncated).toBe(true);
  });
});

describe('fileTree', () => {
  const find = (node: TreeNode, path: string): TreeNode | undefined =>
    node.path === path ? node : node.children?.map((c) => find(c, path)).find((x) => x !== undefined);

  test('directories first, sizes summed, skipped names absent', () => {
    const tree = fileTree(ck, '20260101000000_TestExp');
    expect(tree).toMatchObject({ name: '20260101000000_TestExp', path: '', type: 'dir' });
    expect(tree.truncated).toBeUndefined();
    expect(tree.children?.map((c) => c.name).slice(0, 2)).toEqual(['code', 'paper']);
    const code = find(tree, 'code');
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
    expect(find(tree, 'paper/figures/fig_01.png')?.size).toBe(54);
    for (const hidden of ['.git', '__pycache__', 'node_modules', '.env', '.results.json.123.abc.tmp']) expect(find(tree, hidden)).toBeUndefined();
  });

  test('depth and entry caps mark what was cut', () => {
    const shallow = fileTree(ck, 'x', undefined, { maxDepth: 1 });
    expect(find(shallow, 'paper')).toMatchObject({ children: [], truncated: true });
    expect(shallow.truncated).toBe(true);
    const count = (n: TreeNode): number => (n.children ?? []).reduce((sum, c) => sum + 1 + count(c), 0);
    const few = fileTree(ck, 'x', undefined, { maxEntries: 2 });
    expect(count(few)).toBe(2);
    expect(few.truncated).toBe(true);
    expect(count(fileTree(ck, 'x'))).toBeGreaterThan(2);
  });

  test('a hide rule drops files, not directories', () => {
    const tree = fileTree(ck, 'x', isNodeMetaFile);
    const names = tree.children?.map((c) => c.name) ?? [];
    expect(names).toContain('model.pkl');
    for (const meta of ['tree.json', 'experiment.md', 'idea.json', 'results.json', 'cost_summary.json']) expect(names).not.toContain(meta);
  });
});

describe('node work directories', () => {
  test('the reference list of run records, *.log and rotated memory logs are metadata; user files are not', () => {
    for (const n of ['tree.json', 'node_report.json', '.svc_pid', '.ari_pid', 'ari.log', 'run_3.log', 'memory_access.2.jsonl', 'memory_access.summary.json']) {
      expect(isNodeMetaFile(n)).toBe(true);
    }
    for (const n of ['data.csv', 'script.py', 'input.txt', 'model.pkl', 'memory_access.jsonl.bak', 'log.txt']) expect(isNodeMetaFile(n)).toBe(false);
  });

  test('resolves <workspace>/experiments/<run>/<node>', () => {
    const dir = join(ws, 'experiments', '20260101000000_TestExp', 'node_abc');
    mkdirSync(dir, { recursive: true });
    expect(nodeWorkDir(ck, 'node_abc')).toBe(dir);
  });

  test('ids with slashes or .., and links leading out, are refused; a missing directory is not found', () => {
    for (const bad of ['../x', 'a/b', '..', '', '.hidden', 'node..x']) expect(() => nodeWorkDir(ck, bad)).toThrow(InputError);
    expect(() => nodeWorkDir(ck, 'node_missing')).toThrow(NotFoundError);
    const exp = join(ws, 'experiments', '20260101000000_TestExp');
    mkdirSync(exp, { recursive: true });
    symlinkSync('/tmp', join(exp, 'node_out'));
    expect(() => nodeWorkDir(ck, 'node_out')).toThrow(InputError);
  });
});
