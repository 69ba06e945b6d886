import { afterEach, beforeEach, expect, test } from 'bun:test';
import { join } from 'node:path';
import { ConflictError } from '../../../src/core/errors.ts';
import { tryLockFile, withFileLockSync } from '../../../src/core/file-lock.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

test('withFileLockSync runs the function under the lock and lets go after, also when it throws', () => {
  const path = join(dir, '.lock');
  expect(withFileLockSync(path, () => tryLockFile(path))).toBe('busy');
  expect(() =>
    withFileLockSync(path, () => {
      throw new Error('boom');
    }),
  ).toThrow('boom');
  const after = tryLockFile(path);
  expect(after).not.toBe('busy');
  if (typeof after === 'object') after.release();
});

test('a lock another holder keeps is waited for, then refused with ConflictError', () => {
  const path = join(dir, '.lock');
  const held = tryLockFile(path);
  if (typeof held !== 'object') throw new Error(`flock is not available here: ${held}`);
  let ran = false;
  try {
    expect(() => withFileLockSync(path, () => (ran = true), 50)).toThrow(ConflictError);
    expect(ran).toBe(false);
  } finally {
    held.release();
  }
  expect(withFileLockSync(path, () => 'now')).toBe('now');
});
