import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { curateBundle, type CurateResult } from '../../../src/ear/curate.ts';
import { bundleDigest, type ManifestLock } from '../../../src/ear/manifest.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let root: string;
let ckpt: string;
const ENV = { SOURCE_DATE_EPOCH: '1700000000' };

function put(rel: string, content: string | Uint8Array = rel): void {
  const p = join(ckpt, 'ear', rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, content);
}
const publish = (yaml: string) => put('publish.yaml', yaml);
const curate = async (showFiles = true) => (await curateBundle(ckpt, { showFiles, env: ENV })) as CurateResult;
const paths = (r: CurateResult) => (r.files ?? []).map((f) => f.path);

beforeEach(() => {
  root = tempDir();
  ckpt = join(root, 'ckpt_1');
  mkdirSync(join(ckpt, 'ear'), { recursive: true });
  writeFileSync(join(ckpt, 'tree.json'), '{"nodes":[]}');
});
afterEach(() => removeDir(root));

describe('curateBundle', () => {
  test('no publish.yaml: skipped, nothing written', async () => {
    put('a.txt');
    const r = await curateBundle(ckpt);
    expect(r).toMatchObject({ skipped: true });
    expect((r as { reason: string }).reason).toContain('publish.yaml');
    expect(readdirSync(ckpt).sort()).toEqual(['ear', 'tree.json']);
  });

  test('no ear/ directory: skipped', async () => {
    rmSync(join(ckpt, 'ear'), { recursive: true });
    expect(await curateBundle(ckpt)).toMatchObject({ skipped: true });
  });

  test('every built-in deny pattern wins over include, at any depth', async () => {
    publish('include: ["**/*"]\n');
    const denied = ['.env', '.env.local', 'secrets/token.txt', 'sub/secrets/deep/x', 'cert.pem', 'sub/tls.key', 'id_rsa', 'a/b/id_ed25519', 'KEY.PEM', 'x/.env'];
    for (const d of denied) put(d);
    put('code/train.py');
    const r = await curate();
    // publish.yaml itself is policy, not part of the work: never shipped, even when include matches it
    expect(paths(r)).toEqual(['code/train.py']);
    expect(r.excluded_count).toBe(denied.length + 1);
    expect(existsSync(join(r.ear_published_dir, 'publish.yaml'))).toBe(false);
    const lock = readFileSync(r.manifest_path, 'utf8');
    for (const d of denied) expect(lock).not.toContain(d);
    expect(existsSync(join(r.ear_published_dir, '.env'))).toBe(false);
  });

  test('include is an allowlist; exclude applies after it', async () => {
    publish('include: ["code/**", "results/*.csv", "README.md", "publish.yaml"]\nexclude: ["code/scratch/**", "results/big.csv"]\n');
    put('README.md');
    put('code/a.py');
    put('code/scratch/tmp.py');
    put('results/r.csv');
    put('results/big.csv');
    put('other.bin');
    const r = await curate();
    expect(paths(r)).toEqual(['README.md', 'code/a.py', 'results/r.csv']);
    expect(r.excluded_count).toBe(4); // scratch, big.csv, other.bin, publish.yaml
    expect(r.file_count).toBe(3);
  });

  test('a symlink leading out of ear/ is never followed; one inside is read as its file', async () => {
    publish('include: ["**/*"]\n');
    writeFileSync(join(root, 'outside.txt'), 'SECRET OUTSIDE');
    mkdirSync(join(root, 'outdir'));
    writeFileSync(join(root, 'outdir', 'f.txt'), 'SECRET DIR');
    put('real.txt', 'inside');
    symlinkSync(join(root, 'outside.txt'), join(ckpt, 'ear', 'link_out.txt'));
    symlinkSync(join(root, 'outdir'), join(ckpt, 'ear', 'linkdir'));
    symlinkSync('real.txt', join(ckpt, 'ear', 'link_in.txt'));
    symlinkSync(join(root, 'missing'), join(ckpt, 'ear', 'dangling'));
    const r = await curate();
    expect(paths(r)).toEqual(['link_in.txt', 'real.txt']);
    expect(readFileSync(join(r.ear_published_dir, 'link_in.txt'), 'utf8')).toBe('inside');
    expect(r.excluded_count).toBe(4);
  });

  test('a kept file over max_file_mb fails naming it, and writes nothing', async () => {
    publish('include: ["**/*"]\nmax_file_mb: 1\n');
    put('small.txt');
    put('data/huge.bin', new Uint8Array(1024 * 1024 + 1));
    await expect(curate()).rejects.toThrow('ear/data/huge.bin is 1.0 MB, over max_file_mb 1');
    expect(existsSync(join(ckpt, 'ear_published'))).toBe(false);
    expect(readdirSync(ckpt).sort()).toEqual(['ear', 'tree.json']);
  });

  test('an oversize file that is excluded does not fail', async () => {
    publish('include: ["**/*"]\nexclude: ["*.bin"]\nmax_file_mb: 1\n');
    put('huge.bin', new Uint8Array(2 * 1024 * 1024));
    put('small.txt');
    expect((await curate()).file_count).toBe(1);
  });

  test('manifest.lock: sorted keys, indent 2, only the excluded count, the bundle digest of its files', async () => {
    publish('include: ["*.txt", "publish.yaml"]\nvisibility: unlisted\n');
    put('b.txt', 'bbb');
    put('a.txt', 'aa');
    put('skip.log');
    const r = await curate();
    const text = readFileSync(r.manifest_path, 'utf8');
    const lock = JSON.parse(text) as ManifestLock;
    expect(text).toBe(`${JSON.stringify(lock, null, 2)}\n`);
    expect(Object.keys(lock)).toEqual([...Object.keys(lock)].sort());
    expect(lock).toMatchObject({ version: 1, checkpoint_id: 'ckpt_1', excluded_count: 2, created_at: '2023-11-14T22:13:20.000Z' });
    expect(lock.publish).toEqual({ auto_promote: false, backend: 'svc-registry', license: null, max_file_mb: 100, required: false, visibility: 'unlisted' });
    expect(lock.files.map((f) => f.path)).toEqual(['a.txt', 'b.txt']);
    expect(lock.files[0]).toEqual({ path: 'a.txt', sha256: new Bun.CryptoHasher('sha256').update('aa').digest('hex'), size: 2 });
    expect(lock.bundle_sha256).toBe(bundleDigest(lock.files));
    expect(r.bundle_sha256).toBe(lock.bundle_sha256);
    const status = JSON.parse(readFileSync(join(ckpt, 'ear_curate.status.json'), 'utf8'));
    expect(status).toMatchObject({ status: 'curated', bundle_sha256: r.bundle_sha256, file_count: 2, excluded_count: 2 });
  });

  test('files only with showFiles', async () => {
    publish('include: ["**/*"]\n');
    put('a.txt');
    const r = (await curateBundle(ckpt, { env: ENV })) as CurateResult;
    expect(r.files).toBeUndefined();
    expect(r).toMatchObject({ skipped: false, file_count: 1 });
  });

  test('re-curating the same tree gives the same digest and the same manifest.lock bytes', async () => {
    publish('include: ["**/*"]\n');
    put('x/y.txt', 'y');
    const a = await curateBundle(ckpt, {});
    const lockA = readFileSync((a as CurateResult).manifest_path);
    await Bun.sleep(5);
    const b = await curateBundle(ckpt, {});
    expect((b as CurateResult).bundle_sha256).toBe((a as CurateResult).bundle_sha256);
    expect(readFileSync((b as CurateResult).manifest_path)).toEqual(lockA);
    put('x/z.txt', 'z');
    const c = (await curateBundle(ckpt, {})) as CurateResult;
    expect(c.bundle_sha256).not.toBe((a as CurateResult).bundle_sha256);
    expect(readdirSync(ckpt).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  test('a malformed or invalid publish.yaml is one error naming the file and key', async () => {
    publish('include: [a\n');
    await expect(curate()).rejects.toThrow(/publish\.yaml:\d+:\d+/);
    publish('include: ["**/*"]\nvisibility: secret\n');
    await expect(curate()).rejects.toThrow(/publish\.yaml: visibility: /);
    publish('include: ["**/*"]\nvisibility: embargoed-until:2026-02-30\n');
    await expect(curate()).rejects.toThrow(/visibility: '2026-02-30' is not a calendar date/);
    publish('include: ["**/*"]\nlicense: WTFPL\n');
    await expect(curate()).rejects.toThrow(/publish\.yaml: license: /);
    publish('include: ["**/*"]\nbackend: ftp\n');
    await expect(curate()).rejects.toThrow(/publish\.yaml: backend: /);
    publish('include: ["**/*"]\nmax_file_mb: 1.5\n');
    await expect(curate()).rejects.toThrow(/publish\.yaml: max_file_mb: /);
    publish('include: ["**/*"]\nrequired: "yes"\n');
    await expect(curate()).rejects.toThrow(/publish\.yaml: required: /);
    publish('include: []\n');
    await expect(curate()).rejects.toThrow(/publish\.yaml: include: /);
    publish('includes: ["**/*"]\n');
    await expect(curate()).rejects.toThrow(/publish\.yaml: includes: unknown key/);
    publish('include: ["../outside/**"]\n');
    await expect(curate()).rejects.toThrow(/publish\.yaml: include\[0\]: '\.\.\/outside\/\*\*' must be a glob relative to ear/);
    publish('include: ["**/*"]\nexclude: ["/etc/*"]\n');
    await expect(curate()).rejects.toThrow(/publish\.yaml: exclude\[0\]:/);
    publish('- a\n');
    await expect(curate()).rejects.toThrow(/publish\.yaml: must be a mapping/);
    expect(existsSync(join(ckpt, 'ear_published'))).toBe(false);
  });

  test('license: ear/LICENSE generated from the SPDX id before hashing, an existing one kept', async () => {
    writeFileSync(join(ckpt, 'workflow.yaml'), 'author_name: Ada Lovelace\n');
    publish('include: ["code/**"]\nlicense: MIT\n');
    put('code/a.py');
    const r = await curate();
    const text = readFileSync(join(ckpt, 'ear', 'LICENSE'), 'utf8');
    expect(text).toContain('Copyright (c) 2023 Ada Lovelace');
    expect(paths(r)).toContain('LICENSE');
    expect(readFileSync(join(r.ear_published_dir, 'LICENSE'), 'utf8')).toBe(text);
    put('LICENSE', 'my own terms');
    publish('include: ["code/**"]\nlicense: Apache-2.0\n');
    const r2 = await curate();
    expect(readFileSync(join(r2.ear_published_dir, 'LICENSE'), 'utf8')).toBe('my own terms');
  });

  test('each of the five licenses has its text; an empty holder leaves no dangling space', async () => {
    const { licenseText } = await import('../../../src/ear/license.ts');
    expect(licenseText('Apache-2.0', 2026, '')).toContain('Apache License');
    expect(licenseText('GPL-3.0', 2026, '')).toContain('GNU GENERAL PUBLIC LICENSE');
    expect(licenseText('BSD-3-Clause', 2026, '')).toContain('Copyright (c) 2026\n');
    expect(licenseText('MIT', 2026, '')).toContain('Copyright (c) 2026\n');
    expect(licenseText('CC-BY-4.0', 2026, 'X')).toContain('Creative Commons Attribution 4.0');
  });
});
