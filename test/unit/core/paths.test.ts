import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../../src/core/errors.ts';
import { isWithin, resolveInside } from '../../../src/core/paths.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let base: string;
let root: string;
beforeEach(() => {
  base = tempDir();
  root = join(base, 'root');
  mkdirSync(join(root, 'sub'), { recursive: true });
  mkdirSync(join(base, 'outside'));
});
afterEach(() => removeDir(base));

describe('resolveInside', () => {
  test('accepts relative and absolute paths inside the root, existing or not', () => {
    expect(resolveInside(root, 'sub/file.txt')).toBe(join(root, 'sub', 'file.txt'));
    expect(resolveInside(root, join(root, 'sub'))).toBe(join(root, 'sub'));
    expect(resolveInside(root, 'sub/../sub/new/deeper')).toBe(join(root, 'sub', 'new', 'deeper'));
    expect(resolveInside(root, '.')).toBe(root);
  });

  test.each(['..', '../outside', 'sub/../../outside', '/etc/passwd'])('refuses %s', (p) => {
    expect(() => resolveInside(root, p)).toThrow(InputError);
    expect(() => resolveInside(root, p)).toThrow(/is outside/);
  });

  test('refuses a name that only shares the root as a prefix', () => {
    mkdirSync(`${root}-evil`);
    expect(() => resolveInside(root, `${root}-evil/x`)).toThrow(/is outside/);
  });

  test('refuses a symlink that leads out, and paths below it', () => {
    symlinkSync(join(base, 'outside'), join(root, 'link'));
    expect(() => resolveInside(root, 'link')).toThrow(/is outside/);
    expect(() => resolveInside(root, 'link/new-file')).toThrow(/is outside/);
  });

  test('accepts a symlink that stays inside', () => {
    symlinkSync(join(root, 'sub'), join(root, 'alias'));
    expect(resolveInside(root, 'alias/f')).toBe(join(root, 'alias', 'f'));
  });

  test('refuses a dangling symlink, whose target could be anywhere', () => {
    symlinkSync(join(base, 'outside', 'not-yet'), join(root, 'dangling'));
    expect(() => resolveInside(root, 'dangling')).toThrow(/is outside/);
  });

  test('refuses NUL bytes', () => {
    expect(() => resolveInside(root, 'a\0b')).toThrow(/NUL/);
  });

  test('isWithin is lexical', () => {
    expect(isWithin('/a/b', '/a/b/c')).toBe(true);
    expect(isWithin('/a/b', '/a/b')).toBe(true);
    expect(isWithin('/a/b', '/a/bc')).toBe(false);
    expect(isWithin('/a/b', '/a')).toBe(false);
  });
});
