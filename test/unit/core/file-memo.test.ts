import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { memoByFile } from '../../../src/core/file-memo.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir('svc-file-memo-');
});
afterEach(() => removeDir(dir));

/** A reading that counts how often the file was really read. */
function counted() {
  const reads: string[] = [];
  const read = memoByFile((path) => {
    reads.push(path);
    return Bun.file(path).size;
  }, 2);
  return { read, reads };
}

/** One moment, whole seconds back, that every file of a test can be dated to. */
const BASE = Math.floor(Date.now() / 1000) - 10;

/** Writes `text` to `path` dated `secondsAgo` before BASE: older than a change the file clock could miss. */
function settled(path: string, text: string, secondsAgo = 1): void {
  writeFileSync(path, text);
  utimesSync(path, BASE - secondsAgo, BASE - secondsAgo);
}

describe('memoByFile', () => {
  test('an unchanged file is read once; a rewrite in place, a replacement or a removal reads it again', () => {
    const { read, reads } = counted();
    const f = join(dir, 'a.json');
    settled(f, 'one');
    expect(read(f)).toBe(3);
    expect(read(f)).toBe(3);
    expect(reads).toHaveLength(1);
    settled(f, 'three', 2);
    expect(read(f)).toBe(5);
    expect(reads).toHaveLength(2);
    // same size and mtime, another inode: a replacement by rename
    const g = join(dir, 'b.json');
    settled(g, 'fives', 2);
    const [was, next] = [statSync(f), statSync(g)];
    expect([next.size, next.mtimeMs]).toEqual([was.size, was.mtimeMs]);
    expect(next.ino).not.toBe(was.ino);
    renameSync(g, f);
    expect(read(f)).toBe(5);
    expect(reads).toHaveLength(3);
    rmSync(f);
    expect(read(f)).toBe(0);
    expect(read(f)).toBe(0);
    expect(reads).toHaveLength(5);
  });

  test('a file changed moments ago is read again next time: its clock may not show the next change', () => {
    const { read, reads } = counted();
    const f = join(dir, 'a.json');
    writeFileSync(f, 'fresh');
    read(f);
    read(f);
    expect(reads).toHaveLength(2);
  });

  test('keeps at most `max` files, dropping the one read longest ago', () => {
    const { read, reads } = counted();
    const [a, b, c] = ['a', 'b', 'c'].map((n) => join(dir, n)) as [string, string, string];
    for (const f of [a, b, c]) settled(f, 'x');
    read(a);
    read(b);
    read(a);
    read(c); // drops b, read longer ago than a
    expect(reads).toEqual([a, b, c]);
    read(a);
    read(b);
    expect(reads).toEqual([a, b, c, b]);
  });

  test('a reading that throws is not kept', () => {
    let calls = 0;
    const read = memoByFile(() => {
      calls++;
      throw new Error('bad');
    }, 2);
    const f = join(dir, 'a');
    settled(f, 'x');
    expect(() => read(f)).toThrow('bad');
    expect(() => read(f)).toThrow('bad');
    expect(calls).toBe(2);
  });
});
