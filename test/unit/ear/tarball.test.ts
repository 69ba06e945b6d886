import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { curateBundle, type CurateResult } from '../../../src/ear/curate.ts';
import { writeBundleTarball } from '../../../src/ear/tarball.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let root: string;
beforeEach(() => {
  root = tempDir();
});
afterEach(() => removeDir(root));

const LONG = `${'deep/'.repeat(30)}name-${'x'.repeat(40)}.txt`;

function makeRun(dir: string): void {
  const put = (rel: string, content: string | Uint8Array) => {
    const p = join(dir, 'ear', rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  };
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'tree.json'), '{}');
  put('publish.yaml', 'include: ["**/*"]\n');
  put('b/c.txt', 'c');
  put('a.txt', 'a');
  put('data/blob.bin', new Uint8Array(300_000).map((_, i) => (i * 31) % 251));
  put('ünï.txt', 'unicode');
  put(LONG, 'long path');
}

describe('writeBundleTarball', () => {
  test('the same tree gives byte-identical tarballs: curated twice, in two directories, other mtimes and modes', async () => {
    const env = { SOURCE_DATE_EPOCH: '1700000000' };
    const one = join(root, 'one', 'run_x');
    const two = join(root, 'two', 'run_x');
    makeRun(one);
    const r1 = (await curateBundle(one, { env })) as CurateResult;
    const t1 = await writeBundleTarball(r1.ear_published_dir, join(root, 't1.tar.gz'));
    await Bun.sleep(20);
    const again = (await curateBundle(one, { env: {} })) as CurateResult; // re-curate, other clock
    const t1b = await writeBundleTarball(again.ear_published_dir, join(root, 't1b.tar.gz'));
    expect(t1b).toEqual(t1);

    const oldMask = process.umask(0o077);
    try {
      makeRun(two);
      utimesSync(join(two, 'ear', 'a.txt'), 12345, 12345);
      const r2 = (await curateBundle(two, { env })) as CurateResult;
      chmodSync(join(r2.ear_published_dir, 'a.txt'), 0o600);
      utimesSync(join(r2.ear_published_dir, 'b', 'c.txt'), 99, 99);
      const t2 = await writeBundleTarball(r2.ear_published_dir, join(root, 't2.tar.gz'));
      expect(t2).toEqual(t1);
    } finally {
      process.umask(oldMask);
    }
    const a = readFileSync(join(root, 't1.tar.gz'));
    const b = readFileSync(join(root, 't2.tar.gz'));
    expect(Buffer.compare(a, b)).toBe(0);
    expect(t1.size).toBe(a.length);
    expect(t1.sha256).toBe(new Bun.CryptoHasher('sha256').update(a).digest('hex'));
    // gzip header: mtime 0, OS Unix
    expect([...a.subarray(0, 10)]).toEqual([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
  });

  test('system tar extracts it: every file, manifest.lock included, owners 0, mtime 0, mode 0644', async () => {
    const run = join(root, 'run_y');
    makeRun(run);
    const r = (await curateBundle(run, {})) as CurateResult;
    const out = join(root, 'b.tar.gz');
    await writeBundleTarball(r.ear_published_dir, out);
    const list = Bun.spawnSync(['tar', '-tzvf', out, '--numeric-owner']).stdout.toString().trim().split('\n');
    const names = list.map((l) => l.split(/\s+/).slice(5).join(' '));
    expect(names).toEqual(['a.txt', 'b/c.txt', 'data/blob.bin', LONG, 'manifest.lock', 'ünï.txt']);
    for (const l of list) expect(l).toMatch(/^-rw-r--r-- 0\/0 +\d+ 1970-01-01 00:00 /);
    const dest = join(root, 'x');
    mkdirSync(dest);
    const x = Bun.spawnSync(['tar', '-xzf', out, '-C', dest]);
    expect(x.exitCode).toBe(0);
    for (const f of ['a.txt', 'b/c.txt', 'data/blob.bin', LONG, 'manifest.lock', 'ünï.txt']) {
      expect(readFileSync(join(dest, f))).toEqual(readFileSync(join(r.ear_published_dir, f)));
    }
  });

  test('written atomically: a refused tree leaves no file and no temp file', async () => {
    const dir = join(root, 'pub');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.txt'), 'a');
    symlinkSync('/etc/passwd', join(dir, 'link'));
    await expect(writeBundleTarball(dir, join(root, 'out', 'b.tar.gz'))).rejects.toThrow('not a regular file');
    expect(readdirSync(root).sort()).toEqual(['pub']);
  });

  test('an empty tree is a valid empty archive', async () => {
    const dir = join(root, 'empty');
    mkdirSync(dir);
    const out = join(root, 'e.tar.gz');
    await writeBundleTarball(dir, out);
    expect(Bun.spawnSync(['tar', '-tzf', out]).exitCode).toBe(0);
    cpSync(out, join(root, 'copy.tar.gz'));
  });
});
