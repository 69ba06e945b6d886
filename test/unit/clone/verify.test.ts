import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cloneBundle, tokenFrom } from '../../../src/clone/clone.ts';
import { ConflictError, InputError, InvalidRecordError } from '../../../src/core/errors.ts';
import { bundleDigest } from '../../../src/ear/manifest.ts';
import { makeBundle, tarTree, treeFiles, writeBundleTree } from '../../support/bundle.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { failure, nothingLeft } from './helpers.ts';

let root: string;
let out: string;
const env = {};
const FILES = { 'code/main.py': 'print("hi")\n', 'reproduce.sh': '#!/bin/sh\npython code/main.py\n', 'data/x.csv': 'a,b\n1,2\n' };

beforeEach(() => {
  root = tempDir();
  out = join(root, 'out');
  mkdirSync(out);
});
afterEach(() => removeDir(root));

describe('clone from file:// with verification', () => {
  test('a good bundle: tree renamed into place, digest and count reported', async () => {
    const { lock, tarball } = await makeBundle(root, FILES);
    const dest = join(out, 'b');
    const r = await cloneBundle(`file://${tarball}`, dest, { env, expectSha256: lock.bundle_sha256 });
    expect(r).toMatchObject({ ref: `file://${tarball}`, dest, bundle_sha256: lock.bundle_sha256, file_count: 3, extracted: true });
    expect(treeFiles(dest)).toEqual(['code/main.py', 'data/x.csv', 'manifest.lock', 'reproduce.sh']);
    expect(readFileSync(join(dest, 'code/main.py'), 'utf8')).toBe(FILES['code/main.py']);
    expect(readdirSync(out)).toEqual(['b']);
  });

  test('file:// of a directory holding the tarball; relative path against cwd', async () => {
    const { lock } = await makeBundle(root, FILES);
    const r = await cloneBundle(`file://${root}`, join(out, 'b'), { env });
    expect(r.bundle_sha256).toBe(lock.bundle_sha256);
    const r2 = await cloneBundle('file://bundle.tar.gz', 'out/c', { env, cwd: root });
    expect(r2.dest).toBe(join(out, 'c'));
  });

  test('a file:// directory with no tarball is not found', async () => {
    const err = await failure(cloneBundle(`file://${out}`, join(root, 'd'), { env }));
    expect(err.message).toContain('no tarball');
    nothingLeft(join(root, 'd'), ['out']);
  });

  test('an empty existing directory is a fine destination', async () => {
    const { tarball } = await makeBundle(root, FILES);
    mkdirSync(join(out, 'empty'));
    const r = await cloneBundle(`file://${tarball}`, join(out, 'empty'), { env });
    expect(r.file_count).toBe(3);
  });

  test('--expect-sha256 wrong: hard failure, no destination', async () => {
    const { tarball } = await makeBundle(root, FILES);
    const dest = join(out, 'b');
    const err = await failure(cloneBundle(`file://${tarball}`, dest, { env, expectSha256: 'a'.repeat(64) }));
    expect(err).toBeInstanceOf(InvalidRecordError);
    expect(err.message).toContain('digest mismatch');
    nothingLeft(dest);
  });

  test('--expect-sha256 that is not 64 hex is bad input', async () => {
    const { tarball } = await makeBundle(root, FILES);
    expect(await failure(cloneBundle(`file://${tarball}`, join(out, 'b'), { env, expectSha256: 'abc' }))).toBeInstanceOf(InputError);
  });

  test('a tampered file fails and leaves nothing', async () => {
    const tree = join(root, 'tree');
    mkdirSync(tree);
    writeBundleTree(tree, FILES);
    writeFileSync(join(tree, 'code/main.py'), 'print("pwned")\n');
    await tarTree(tree, join(root, 't.tar.gz'));
    const dest = join(out, 'b');
    const err = await failure(cloneBundle(`file://${root}/t.tar.gz`, dest, { env }));
    expect(err.message).toMatch(/code\/main\.py/);
    nothingLeft(dest);
  });

  test('same size, different bytes: the SHA-256 check catches it', async () => {
    const tree = join(root, 'tree');
    mkdirSync(tree);
    writeBundleTree(tree, FILES);
    writeFileSync(join(tree, 'data/x.csv'), 'a,b\n1,3\n');
    await tarTree(tree, join(root, 't.tar.gz'));
    const err = await failure(cloneBundle(`file://${root}/t.tar.gz`, join(out, 'b'), { env }));
    expect(err.message).toContain('data/x.csv does not match its SHA-256');
    nothingLeft(join(out, 'b'));
  });

  test('an extra file the lock does not list fails', async () => {
    const tree = join(root, 'tree');
    mkdirSync(tree);
    writeBundleTree(tree, FILES);
    writeFileSync(join(tree, 'sneaky.sh'), 'rm -rf ~\n');
    await tarTree(tree, join(root, 't.tar.gz'));
    const err = await failure(cloneBundle(`file://${root}/t.tar.gz`, join(out, 'b'), { env }));
    expect(err.message).toContain('sneaky.sh is in the bundle but not in manifest.lock');
    nothingLeft(join(out, 'b'));
  });

  test('a listed file missing from the archive fails', async () => {
    const tree = join(root, 'tree');
    mkdirSync(tree);
    writeBundleTree(tree, FILES);
    removeDir(join(tree, 'data'));
    await tarTree(tree, join(root, 't.tar.gz'));
    const err = await failure(cloneBundle(`file://${root}/t.tar.gz`, join(out, 'b'), { env }));
    expect(err.message).toContain('data/x.csv is listed in manifest.lock but missing');
  });

  test('a missing manifest.lock fails', async () => {
    const tree = join(root, 'tree');
    mkdirSync(join(tree, 'code'), { recursive: true });
    writeFileSync(join(tree, 'code/a.py'), 'x');
    await tarTree(tree, join(root, 't.tar.gz'));
    const err = await failure(cloneBundle(`file://${root}/t.tar.gz`, join(out, 'b'), { env }));
    expect(err.message).toContain('no manifest.lock');
    nothingLeft(join(out, 'b'));
  });

  test('a declared digest that does not match the files fails', async () => {
    const tree = join(root, 'tree');
    mkdirSync(tree);
    const lock = writeBundleTree(tree, FILES);
    writeFileSync(join(tree, 'manifest.lock'), JSON.stringify({ ...lock, bundle_sha256: 'b'.repeat(64) }));
    await tarTree(tree, join(root, 't.tar.gz'));
    const err = await failure(cloneBundle(`file://${root}/t.tar.gz`, join(out, 'b'), { env }));
    expect(err.message).toContain(`the bundle digest is ${bundleDigest(lock.files)}`);
  });

  test.each([
    ['not JSON', 'nope'],
    ['no files', JSON.stringify({ bundle_sha256: 'a'.repeat(64) })],
    ['a record without sha256', JSON.stringify({ bundle_sha256: 'a'.repeat(64), files: [{ path: 'x', size: 1 }] })],
    ['a path with ..', JSON.stringify({ bundle_sha256: 'a'.repeat(64), files: [{ path: '../x', size: 1, sha256: 'a'.repeat(64) }] })],
  ])('a malformed manifest.lock (%s) fails', async (_why, text) => {
    const tree = join(root, 'tree');
    mkdirSync(tree);
    writeFileSync(join(tree, 'manifest.lock'), text);
    await tarTree(tree, join(root, 't.tar.gz'));
    const err = await failure(cloneBundle(`file://${root}/t.tar.gz`, join(out, 'b'), { env }));
    expect(err).toBeInstanceOf(InvalidRecordError);
    nothingLeft(join(out, 'b'));
  });

  test('not a tarball at all fails cleanly', async () => {
    writeFileSync(join(root, 'junk.tar.gz'), 'this is not gzip');
    const err = await failure(cloneBundle(`file://${root}/junk.tar.gz`, join(out, 'b'), { env }));
    expect(err.message).toContain('not a readable tarball');
    nothingLeft(join(out, 'b'));
  });

  test('an occupied destination is refused before anything is fetched', async () => {
    const dest = join(out, 'b');
    mkdirSync(dest);
    writeFileSync(join(dest, 'keep.txt'), 'mine');
    // the reference does not even exist: the destination check comes first
    const err = await failure(cloneBundle(`file://${root}/nothing.tar.gz`, dest, { env }));
    expect(err).toBeInstanceOf(ConflictError);
    expect(readFileSync(join(dest, 'keep.txt'), 'utf8')).toBe('mine');
    writeFileSync(join(out, 'afile'), 'x');
    expect(await failure(cloneBundle(`file://${root}/nothing.tar.gz`, join(out, 'afile'), { env }))).toBeInstanceOf(ConflictError);
  });

  test('--no-extract: the destination holds the verified archive itself', async () => {
    const { lock, tarball } = await makeBundle(root, FILES);
    const dest = join(out, 'arch');
    const r = await cloneBundle(`file://${tarball}`, dest, { env, noExtract: true, expectSha256: lock.bundle_sha256 });
    expect(r.extracted).toBe(false);
    expect(readdirSync(dest)).toEqual(['bundle.tar.gz']);
    expect(readFileSync(join(dest, 'bundle.tar.gz'))).toEqual(readFileSync(tarball));
    // and it can be cloned again from there
    const again = await cloneBundle(`file://${dest}`, join(out, 'tree'), { env });
    expect(again.bundle_sha256).toBe(lock.bundle_sha256);
  });

  test('--no-extract still verifies: a tampered archive leaves nothing', async () => {
    const tree = join(root, 'tree');
    mkdirSync(tree);
    writeBundleTree(tree, FILES);
    writeFileSync(join(tree, 'reproduce.sh'), 'evil');
    await tarTree(tree, join(root, 't.tar.gz'));
    await failure(cloneBundle(`file://${root}/t.tar.gz`, join(out, 'arch'), { env, noExtract: true }));
    nothingLeft(join(out, 'arch'));
  });

  test('a symlink inside the bundle is not a file the lock can vouch for', async () => {
    const tree = join(root, 'tree');
    mkdirSync(tree);
    writeBundleTree(tree, FILES);
    symlinkSync('reproduce.sh', join(tree, 'link.sh'));
    await tarTree(tree, join(root, 't.tar.gz'));
    const err = await failure(cloneBundle(`file://${root}/t.tar.gz`, join(out, 'b'), { env }));
    expect(err.message).toContain('link.sh is not a regular file');
    nothingLeft(join(out, 'b'));
  });

  test('files come out with ordinary permissions', async () => {
    const { tarball } = await makeBundle(root, FILES);
    await cloneBundle(`file://${tarball}`, join(out, 'b'), { env });
    expect(statSync(join(out, 'b', 'reproduce.sh')).isFile()).toBe(true);
  });
});

describe('SVC_REPRO_CLONE_POLICY', () => {
  test('deny refuses a clone without --expect-sha256, allows a pinned one', async () => {
    const { lock, tarball } = await makeBundle(root, FILES);
    const err = await failure(cloneBundle(`file://${tarball}`, join(out, 'b'), { env: { SVC_REPRO_CLONE_POLICY: 'deny' } }));
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toContain('SVC_REPRO_CLONE_POLICY=deny');
    nothingLeft(join(out, 'b'));
    const r = await cloneBundle(`file://${tarball}`, join(out, 'b'), { env: { SVC_REPRO_CLONE_POLICY: 'deny' }, expectSha256: lock.bundle_sha256 });
    expect(r.file_count).toBe(3);
  });

  test('warn clones and warns; passthrough is silent', async () => {
    const { tarball } = await makeBundle(root, FILES);
    const warned: string[] = [];
    await cloneBundle(`file://${tarball}`, join(out, 'a'), { env: { SVC_REPRO_CLONE_POLICY: 'warn' }, warn: (l) => void warned.push(l) });
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain('without --expect-sha256');
    await cloneBundle(`file://${tarball}`, join(out, 'b'), { env: {}, warn: (l) => void warned.push(l) });
    expect(warned).toHaveLength(1);
  });

  test('an unknown value is bad input', async () => {
    const { tarball } = await makeBundle(root, FILES);
    expect(await failure(cloneBundle(`file://${tarball}`, join(out, 'b'), { env: { SVC_REPRO_CLONE_POLICY: 'maybe' } }))).toBeInstanceOf(InputError);
  });
});

describe('--token', () => {
  test('an environment variable name first, else the literal', () => {
    expect(tokenFrom('MY_TOKEN', { MY_TOKEN: 'svc_fromenv' })).toBe('svc_fromenv');
    expect(tokenFrom('svc_literal123', { MY_TOKEN: 'svc_fromenv' })).toBe('svc_literal123');
    expect(tokenFrom('MY_TOKEN', {})).toBe('MY_TOKEN');
    expect(tokenFrom('svc_a-b.c', {})).toBe('svc_a-b.c');
    expect(tokenFrom(undefined, {})).toBeUndefined();
  });
});
