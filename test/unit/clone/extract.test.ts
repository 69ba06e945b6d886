import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cloneBundle } from '../../../src/clone/clone.ts';
import { entryProblem, extractTarball } from '../../../src/clone/extract.ts';
import { InvalidRecordError } from '../../../src/core/errors.ts';
import { rawTarball } from '../../support/bundle.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { failure, nothingLeft } from './helpers.ts';

let root: string;
beforeEach(() => {
  root = tempDir();
  mkdirSync(join(root, 'out'));
});
afterEach(() => removeDir(root));

describe('extraction refuses escaping archives', () => {
  test.each([
    ['an absolute path', [{ path: '/tmp/svc-clone-abs-escape', body: 'x' }], 'absolute path'],
    ['a .. path', [{ path: '../escape.txt', body: 'x' }], 'climbs out'],
    ['a .. inside a path', [{ path: 'code/../../escape.txt', body: 'x' }], 'climbs out'],
    ['a symlink to an absolute path', [{ path: 'evil', type: 'symlink', linkpath: '/etc' }], 'points outside'],
    ['a symlink leading out with ..', [{ path: 'code/evil', type: 'symlink', linkpath: '../../..' }], 'points outside'],
    ['a symlink then a write through it', [{ path: 'evil', type: 'symlink', linkpath: '/tmp' }, { path: 'evil/svc-clone-through', body: 'x' }], 'points outside'],
    ['a hard link leading out', [{ path: 'hl', type: 'hardlink', linkpath: '../outside.txt' }], 'points outside'],
    ['a hard link to an absolute path', [{ path: 'hl', type: 'hardlink', linkpath: '/etc/passwd' }], 'points outside'],
    ['a character device', [{ path: 'dev', type: 'chardev' }], 'CharacterDevice'],
    ['a fifo', [{ path: 'pipe', type: 'fifo' }], 'FIFO'],
  ] as const)('%s', async (_why, entries, message) => {
    const file = join(root, 'evil.tar.gz');
    await rawTarball(file, [{ path: 'manifest.lock', body: '{}' }, ...entries]);
    const dest = join(root, 'out', 'b');
    const err = await failure(cloneBundle(`file://${file}`, dest, { env: {} }));
    expect(err).toBeInstanceOf(InvalidRecordError);
    expect(err.message).toContain('refused');
    expect(err.message).toContain(message);
    nothingLeft(dest);
    expect(existsSync(join(root, 'escape.txt'))).toBe(false);
    expect(existsSync(join(root, 'outside.txt'))).toBe(false);
    expect(existsSync('/tmp/svc-clone-abs-escape')).toBe(false);
    expect(existsSync('/tmp/svc-clone-through')).toBe(false);
  });

  test('an archive with a bad entry writes nothing at all, even into the temporary tree', async () => {
    const file = join(root, 'evil.tar.gz');
    await rawTarball(file, [{ path: 'ok.txt', body: 'fine' }, { path: '../escape.txt', body: 'x' }, { path: 'after.txt', body: 'y' }]);
    const tree = join(root, 'tree');
    mkdirSync(tree);
    await failure(extractTarball(file, tree));
    expect(readdirSync(tree)).toEqual([]);
    expect(existsSync(join(root, 'escape.txt'))).toBe(false);
  });

  test('an archive of more entries than the cap is refused while reading, before any file is written', async () => {
    const file = join(root, 'many.tar.gz');
    const files = Array.from({ length: 11 }, (_, i) => ({ path: `f${String(i).padStart(2, '0')}.txt`, body: String(i) }));
    const manifest = JSON.stringify({ files: files.map((f) => ({ path: f.path, size: f.body.length })) });
    await rawTarball(file, [{ path: 'manifest.lock', body: manifest }, ...files]);
    const tree = join(root, 'tree');
    mkdirSync(tree);
    const err = await failure(extractTarball(file, tree, 10));
    expect(err).toBeInstanceOf(InvalidRecordError);
    expect(err.message).toBe('the bundle archive is refused: it has more than 10 entries');
    expect(readdirSync(tree)).toHaveLength(0);
    const ok = join(root, 'ok');
    mkdirSync(ok);
    await extractTarball(file, ok, 12);
    expect(readdirSync(ok)).toHaveLength(12);
  });

  test.each([
    ['no manifest.lock', [{ path: 'data.bin', body: 'x'.repeat(4096) }]],
    ['a manifest.lock that is no JSON', [{ path: 'manifest.lock', body: 'not json' }, { path: 'data.bin', body: 'x' }]],
    ['a manifest.lock without sizes', [{ path: 'manifest.lock', body: '{"files": [{"path": "data.bin"}]}' }, { path: 'data.bin', body: 'x' }]],
    ['a manifest.lock below the root', [{ path: 'sub/manifest.lock', body: '{"files": []}' }, { path: 'data.bin', body: 'x' }]],
  ] as const)('an archive with %s declares no size to hold it to: refused before any file is written', async (_why, entries) => {
    const file = join(root, 'undeclared.tar.gz');
    await rawTarball(file, [...entries]);
    const tree = join(root, 'tree');
    mkdirSync(tree);
    const err = await failure(extractTarball(file, tree));
    expect(err.message).toBe('the bundle archive is refused: it has no manifest.lock at its root listing its files and their sizes');
    expect(readdirSync(tree)).toEqual([]);
  });

  test('an entry the file system cannot write is refused naming its path in the archive, not the temporary tree', async () => {
    const file = join(root, 'clash.tar.gz');
    const entries = [{ path: 'a', body: 'file' }, { path: 'a/b', body: 'under a file' }];
    await rawTarball(file, [{ path: 'manifest.lock', body: JSON.stringify({ files: entries.map((e) => ({ path: e.path, size: e.body.length })) }) }, ...entries]);
    const tree = join(root, 'tree');
    mkdirSync(tree);
    const err = await failure(extractTarball(file, tree));
    expect(err).toBeInstanceOf(InvalidRecordError);
    expect(err.message).toContain("'a'");
    expect(err.message).not.toContain(root);
  });

  test('links that stay inside are allowed by extraction (the lock check then refuses them)', () => {
    expect(entryProblem('code/a', 'SymbolicLink', '../b')).toBeNull();
    expect(entryProblem('code/a', 'Link', 'code/b')).toBeNull();
    expect(entryProblem('a', 'File', undefined)).toBeNull();
    expect(entryProblem('a/', 'Directory', undefined)).toBeNull();
    expect(entryProblem('code/a', 'SymbolicLink', '')).toContain('points outside');
  });
});
