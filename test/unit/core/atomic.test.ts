import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGzip, gunzipSync } from 'node:zlib';
import { writeFileAtomic, writeJsonAtomic, writeStreamAtomic } from '../../../src/core/atomic.ts';
import { DiskWriteError } from '../../../src/core/errors.ts';
import { lacks, smallDisk } from '../../support/components.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => removeDir(dir));

describe('writeFileAtomic', () => {
  test.skipIf(lacks('tmpfs'))('a full disk: the error names the file and the cause, the old content stays, no temp file', () => {
    const disk = smallDisk(dir, 64);
    try {
      const f = join(disk.dir, 'tree.json');
      writeFileAtomic(f, 'old');
      let err: unknown = null;
      try {
        writeFileAtomic(f, Buffer.alloc(1 << 20, 1));
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(DiskWriteError);
      expect((err as DiskWriteError).message).toBe(`cannot write ${f}: no space left on device (ENOSPC)`);
      expect(readFileSync(f, 'utf8')).toBe('old');
      expect(readdirSync(disk.dir)).toEqual(['tree.json']);
    } finally {
      disk.remove();
    }
  });

  test('replaces the content and leaves no temp file', () => {
    const f = join(dir, 'a.json');
    writeFileSync(f, 'old');
    writeFileAtomic(f, 'new content');
    expect(readFileSync(f, 'utf8')).toBe('new content');
    expect(readdirSync(dir)).toEqual(['a.json']);
  });

  test('a name of the longest length the filesystem allows is written', () => {
    for (const name of ['a'.repeat(255), '\u{1F600}'.repeat(63)]) {
      writeFileAtomic(join(dir, name), 'x');
      expect(readFileSync(join(dir, name), 'utf8')).toBe('x');
    }
    expect(readdirSync(dir)).toHaveLength(2);
  });

  test('creates missing parent directories and applies the mode', () => {
    const f = join(dir, 'x', 'y', 'secret');
    writeFileAtomic(f, 'k', 0o600);
    expect(readFileSync(f, 'utf8')).toBe('k');
    expect(statSync(f).mode & 0o777).toBe(0o600);
  });

  test('a failed rename keeps the old target and removes the temp file', () => {
    const target = join(dir, 'target');
    mkdirSync(join(target, 'inside'), { recursive: true }); // a non-empty directory cannot be renamed over
    expect(() => writeFileAtomic(target, 'data')).toThrow();
    expect(statSync(target).isDirectory()).toBe(true);
    expect(readdirSync(dir)).toEqual(['target']);
  });

  test('writeJsonAtomic writes indented JSON with a trailing newline', () => {
    const f = join(dir, 'v.json');
    writeJsonAtomic(f, { a: [1, 2] });
    expect(readFileSync(f, 'utf8')).toBe('{\n  "a": [\n    1,\n    2\n  ]\n}\n');
  });
});

describe('writeStreamAtomic', () => {
  test('streams chunks through a transform into the target and leaves no temp file', async () => {
    const f = join(dir, 'big.gz');
    writeFileSync(f, 'old');
    async function* chunks() {
      for (let i = 0; i < 20_000; i++) yield `line ${i}\n`;
    }
    await writeStreamAtomic(f, chunks(), createGzip());
    const lines = gunzipSync(readFileSync(f)).toString().split('\n');
    expect(lines.length).toBe(20_001);
    expect(lines[19_999]).toBe('line 19999');
    expect(readdirSync(dir)).toEqual(['big.gz']);
  });

  test('a source that fails part-way keeps the old target and removes the temp file', async () => {
    const f = join(dir, 'kept.txt');
    writeFileSync(f, 'old');
    async function* failing() {
      yield 'new start\n';
      throw new Error('backend gone');
    }
    await expect(writeStreamAtomic(f, failing())).rejects.toThrow('backend gone');
    expect(readFileSync(f, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['kept.txt']);
  });
});
