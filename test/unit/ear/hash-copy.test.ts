import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CopyError, copyAllHashed } from '../../../src/ear/hash-copy.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
beforeEach(() => {
  dir = tempDir();
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'dst'));
});
afterEach(() => removeDir(dir));

const sha = (b: Uint8Array | string) => createHash('sha256').update(b).digest('hex');

describe('copyAllHashed', () => {
  test('copies every file and returns the size and SHA-256 of each copy, in job order', async () => {
    const jobs = Array.from({ length: 40 }, (_, i) => {
      // sizes around the 1 MiB read chunk, and empty
      const body = new Uint8Array([0, 1, 1048575, 1048576, 1048577][i % 5] as number).fill(i);
      writeFileSync(join(dir, 'src', `f${i}`), body);
      return { from: join(dir, 'src', `f${i}`), to: join(dir, 'dst', `f${i}`), body };
    });
    const out = await copyAllHashed(jobs);
    expect(out).toEqual(jobs.map((j) => ({ size: j.body.length, sha256: sha(j.body) })));
    for (const j of jobs) {
      expect(sha(readFileSync(j.to))).toBe(sha(j.body));
      expect(statSync(j.to).mode & 0o777).toBe(0o644);
    }
  });

  test('no jobs: no workers, an empty answer', async () => {
    expect(await copyAllHashed([])).toEqual([]);
  });

  test('a file that cannot be read rejects with a CopyError naming its job and the system reason', async () => {
    writeFileSync(join(dir, 'src', 'a'), 'a');
    const err = await copyAllHashed([
      { from: join(dir, 'src', 'a'), to: join(dir, 'dst', 'a') },
      { from: join(dir, 'src', 'gone'), to: join(dir, 'dst', 'gone') },
    ]).catch((e) => e);
    expect(err).toBeInstanceOf(CopyError);
    expect(err).toMatchObject({ index: 1, code: 'ENOENT' });
    expect(err.reason).toStartWith('ENOENT: ');
    expect(err.reason).not.toContain(dir);
  });

  test('an existing destination is never overwritten', async () => {
    writeFileSync(join(dir, 'src', 'a'), 'new');
    writeFileSync(join(dir, 'dst', 'a'), 'old');
    const err = await copyAllHashed([{ from: join(dir, 'src', 'a'), to: join(dir, 'dst', 'a') }]).catch((e) => e);
    expect(err).toMatchObject({ index: 0, code: 'EEXIST' });
    expect(readFileSync(join(dir, 'dst', 'a'), 'utf8')).toBe('old');
  });
});
