import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeDir, SVC, svc, tempDir } from '../support/svc.ts';

let dir: string;
let ckpts: string;
let run: string;

beforeAll(() => {
  dir = tempDir();
  ckpts = join(dir, 'checkpoints');
  run = join(ckpts, '20260101000000_bundle');
  mkdirSync(join(run, 'ear', 'code'), { recursive: true });
  writeFileSync(join(run, 'tree.json'), '{"nodes":[]}');
  writeFileSync(join(run, 'ear', 'code', 'train.py'), 'print(1)\n');
  writeFileSync(join(run, 'ear', '.env'), 'KEY=secret\n');
  mkdirSync(join(ckpts, '20260101000000_noconf', 'ear'), { recursive: true });
  writeFileSync(join(ckpts, '20260101000000_noconf', 'tree.json'), '{}');
});
afterAll(() => removeDir(dir));

// SVC_CHECKPOINT_DIR names a checkpoint; ids are looked up beside it
const env = () => ({ SVC_CHECKPOINT_DIR: run });

describe('svc ear', () => {
  test('curate without publish.yaml is skipped, writes nothing, exits 0', async () => {
    const r = await svc(['ear', 'curate', '20260101000000_noconf', '--json'], { cwd: dir, env: env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ skipped: true });
    expect(existsSync(join(ckpts, '20260101000000_noconf', 'ear_published'))).toBe(false);
  });

  test('curate --show-files --json, then status', async () => {
    writeFileSync(join(run, 'ear', 'publish.yaml'), 'include: ["**/*"]\nlicense: MIT\n');
    const r = await svc(['ear', 'curate', run, '--show-files', '--json'], { cwd: dir, env: env() });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.files.map((f: { path: string }) => f.path)).toEqual(['LICENSE', 'code/train.py']);
    expect(out).toMatchObject({ file_count: 2, excluded_count: 2, skipped: false });
    const manifest = JSON.parse(readFileSync(out.manifest_path, 'utf8'));
    expect(manifest.bundle_sha256).toBe(out.bundle_sha256);

    const text = await svc(['ear', 'curate', '20260101000000_bundle'], { cwd: dir, env: env() });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`bundle_sha256 ${out.bundle_sha256}`);

    const s = await svc(['ear', 'status', '--json'], { cwd: dir, env: { SVC_CHECKPOINT_DIR: run } });
    expect(s.code).toBe(0);
    expect(JSON.parse(s.stdout)).toMatchObject({ curated: true, bundle_sha256: out.bundle_sha256, file_count: 2, excluded_count: 2, publish_record: null });
    writeFileSync(join(run, 'publish_record.json'), JSON.stringify({ ref: 'svc://0123456789abcdef', visibility: 'staged' }));
    const s2 = await svc(['ear', 'status', run], { cwd: dir, env: env() });
    expect(s2.stdout).toContain('published: svc://0123456789abcdef (staged)');
  });

  test('bad inputs: no checkpoint, unknown checkpoint, invalid publish.yaml, oversize file', async () => {
    const none = await svc(['ear', 'curate'], { cwd: dir, env: {} });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no checkpoint given');
    const unknown = await svc(['ear', 'status', 'nope'], { cwd: dir, env: env() });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("checkpoint 'nope' does not exist");

    const bad = join(ckpts, '20260101000000_bad');
    mkdirSync(join(bad, 'ear'), { recursive: true });
    writeFileSync(join(bad, 'tree.json'), '{}');
    writeFileSync(join(bad, 'ear', 'publish.yaml'), 'include: ["**/*"]\nvisibility: everyone\n');
    const invalid = await svc(['ear', 'curate', bad], { cwd: dir, env: env() });
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('publish.yaml: visibility:');
    expect(invalid.stderr.trim().split('\n')).toHaveLength(1);

    writeFileSync(join(bad, 'ear', 'publish.yaml'), 'include: ["**/*"]\nmax_file_mb: 1\n');
    writeFileSync(join(bad, 'ear', 'big.bin'), new Uint8Array(2 * 1024 * 1024));
    const big = await svc(['ear', 'curate', bad], { cwd: dir, env: env() });
    expect(big.code).toBe(2);
    expect(big.stderr).toContain('ear/big.bin is 2.0 MB, over max_file_mb 1');
    expect(existsSync(join(bad, 'ear_published'))).toBe(false);
  });

  test('a copy the system refuses part way (file size limit) is one line; the previous bundle stays, no temp is left', async () => {
    const ck = join(ckpts, '20260101000000_efbig');
    mkdirSync(join(ck, 'ear', 'data'), { recursive: true });
    writeFileSync(join(ck, 'tree.json'), '{}');
    writeFileSync(join(ck, 'ear', 'publish.yaml'), 'include: ["data/**"]\n');
    for (let i = 0; i < 6; i++) writeFileSync(join(ck, 'ear', 'data', `f${i}.txt`), `file ${i}\n`);
    const first = await svc(['ear', 'curate', ck, '--json'], { cwd: dir, env: env() });
    expect(first.code).toBe(0);
    const manifest = readFileSync(join(ck, 'ear_published', 'manifest.lock'), 'utf8');

    // 3 MB against a 1 MB RLIMIT_FSIZE: the kernel refuses the copy with EFBIG mid-way
    writeFileSync(join(ck, 'ear', 'data', 'f3.txt'), new Uint8Array(3 * 1024 * 1024).fill(7));
    const p = Bun.spawn(['bash', '-c', 'ulimit -f 1024 && exec "$0" "$@"', SVC, 'ear', 'curate', ck], { cwd: dir, env: { ...process.env, ...env() }, stdout: 'pipe', stderr: 'pipe' });
    const [code, stderr] = await Promise.all([p.exited, new Response(p.stderr).text()]);
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual(['svc: could not copy ear/data/f3.txt into ear_published/: EFBIG: file too large (the previous ear_published/ is unchanged)']);
    expect(readFileSync(join(ck, 'ear_published', 'manifest.lock'), 'utf8')).toBe(manifest);
    expect(readFileSync(join(ck, 'ear_published', 'data', 'f3.txt'), 'utf8')).toBe('file 3\n');
    expect(readdirSync(ck).filter((n) => n.startsWith('.'))).toEqual([]);
  });
});
