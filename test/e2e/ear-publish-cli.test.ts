import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRegistryServer, type RegistryServer } from '../../src/registry/server.ts';
import { removeDir, svc, tempDir } from '../support/svc.ts';
import { writeEarCheckpoint } from '../support/checkpoint.ts';

let dir: string;
let ckpts: string;
let cwd: string;
let reg: RegistryServer;
let owner: string;

/** A curated checkpoint: ear/ with code and a secret, publish.yaml naming `backend`. */
async function curated(name: string, backend = 'svc-registry'): Promise<string> {
  const run = writeEarCheckpoint(join(ckpts, name), { 'code/train.py': `print("${name}")\n`, '.env': 'KEY=secret\n', 'publish.yaml': `include: ["**/*"]\nlicense: MIT\nbackend: ${backend}\n` });
  const r = await svc(['ear', 'curate', run], { cwd, env: {} });
  expect(r.code).toBe(0);
  return run;
}

const json = (s: string) => JSON.parse(s) as Record<string, any>;

beforeAll(() => {
  dir = tempDir();
  ckpts = join(dir, 'checkpoints');
  cwd = join(dir, 'cwd');
  mkdirSync(ckpts);
  mkdirSync(cwd);
  mkdirSync(join(dir, 'registry'));
  reg = startRegistryServer({ host: '127.0.0.1', port: 0, dataDir: join(dir, 'registry') });
  owner = reg.tokens.issue('alice').token;
});
afterAll(async () => {
  await reg.stop();
  removeDir(dir);
});

describe('svc ear publish / promote', () => {
  test('local-tarball from the command line wins over publish.yaml; written into the checkpoint, never the cwd; then promote', async () => {
    const run = await curated('20260101000000_local');
    const p = await svc(['ear', 'publish', run, '--backend', 'local-tarball', '--visibility', 'public', '--json'], { cwd, env: {} });
    expect(p.stderr).toBe('');
    expect(p.code).toBe(0);
    const rec = json(p.stdout);
    expect(rec).toMatchObject({ backend: 'local-tarball', visibility: 'staged', dry_run: false, promoted_at: null, promote_failed_at: null });
    expect(rec.extra.requested_visibility).toBe('public');
    const file = fileURLToPath(rec.ref);
    expect(file.startsWith(join(run, 'ear_bundle'))).toBe(true);
    expect(existsSync(file)).toBe(true);
    expect(readdirSync(cwd)).toEqual([]);
    const manifest = json(readFileSync(join(run, 'ear_published', 'manifest.lock'), 'utf8'));
    expect(rec.bundle_sha256).toBe(manifest.bundle_sha256);
    expect(json(readFileSync(join(run, 'publish_record.json'), 'utf8'))).toEqual(rec);

    const text = await svc(['ear', 'publish', run, '--backend', 'local-tarball'], { cwd, env: {} });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`published ${rec.ref}`);
    expect(text.stdout).toContain('visibility staged');
    expect(text.stdout).toContain(`bundle_sha256 ${rec.bundle_sha256}`);

    const u = await svc(['ear', 'promote', run, '--target', 'unlisted', '--json'], { cwd, env: {} });
    expect(u.code).toBe(0);
    expect(json(u.stdout)).toMatchObject({ ref: rec.ref, visibility: 'unlisted', promote_failed_at: null });
    expect(typeof json(u.stdout).promoted_at).toBe('string');
    const pub = await svc(['ear', 'promote', run], { cwd, env: {} });
    expect(pub.code).toBe(0);
    expect(pub.stdout).toContain('visibility public');

    // demotion, and promotion to the state it already has, are refused with their kind
    for (const target of ['unlisted', 'public']) {
      const d = await svc(['ear', 'promote', run, '--target', target], { cwd, env: {} });
      expect(d.code).toBe(1);
      expect(d.stderr.trim().split('\n')).toHaveLength(1);
      expect(d.stderr).toContain('promote failed (conflict)');
      expect(d.stderr).toContain('demotion is refused');
    }
    const dj = await svc(['ear', 'promote', run, '--target', 'unlisted', '--json'], { cwd, env: {} });
    expect(json(dj.stdout)).toMatchObject({ kind: 'conflict' });
    expect(json(readFileSync(join(run, 'publish_record.json'), 'utf8')).visibility).toBe('public');
    expect(readdirSync(cwd)).toEqual([]);
  });

  test('svc-registry (the real registry) through SVC_REGISTRY_URL / SVC_REGISTRY_TOKEN, then promote to public', async () => {
    const run = await curated('20260101000000_registry');
    const env = { SVC_REGISTRY_URL: reg.url, SVC_REGISTRY_TOKEN: owner };
    const p = await svc(['ear', 'publish', run, '--json'], { cwd, env });
    expect(p.code).toBe(0);
    const rec = json(p.stdout);
    expect(rec.ref).toMatch(/^svc:\/\/[0-9a-f]{16}$/);
    expect(rec).toMatchObject({ backend: 'svc-registry', visibility: 'staged' });
    const id = rec.ref.slice('svc://'.length);
    expect((await fetch(`${reg.url}/artifact/${id}`)).status).not.toBe(200);
    const pr = await svc(['ear', 'promote', run, '--target', 'public', '--json'], { cwd, env });
    expect(pr.code).toBe(0);
    expect(json(pr.stdout).visibility).toBe('public');
    const anon = await fetch(`${reg.url}/artifact/${id}`);
    expect(anon.status).toBe(200);
    expect(anon.headers.get('x-svc-visibility')).toBe('public');
    await anon.arrayBuffer();
    expect(readdirSync(cwd)).toEqual([]);
  });

  test('dry run by --dry-run and by SVC_PUBLISH_DRYRUN sends and writes no bundle', async () => {
    const run = await curated('20260101000000_dry');
    const before = existsSync(join(dir, 'registry', 'artifacts')) ? readdirSync(join(dir, 'registry', 'artifacts')).length : 0;
    const d = await svc(['ear', 'publish', run, '--dry-run', '--json'], { cwd, env: { SVC_REGISTRY_URL: reg.url } });
    expect(d.code).toBe(0);
    expect(json(d.stdout)).toMatchObject({ dry_run: true, visibility: 'staged', backend: 'svc-registry' });
    const after = existsSync(join(dir, 'registry', 'artifacts')) ? readdirSync(join(dir, 'registry', 'artifacts')).length : 0;
    expect(after).toBe(before);
    const text = await svc(['ear', 'publish', run, '--backend', 'local-tarball'], { cwd, env: { SVC_PUBLISH_DRYRUN: 'true' } });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('dry run: would have published file://');
    expect(existsSync(join(run, 'ear_bundle'))).toBe(false);
    expect(existsSync(join(run, 'ear_bundle.tar.gz'))).toBe(false);
    // a dry-run record has nothing to promote
    const pr = await svc(['ear', 'promote', run], { cwd, env: {} });
    expect(pr.code).toBe(2);
    expect(pr.stderr).toContain('promote failed (invalid)');
    expect(readdirSync(cwd)).toEqual([]);
  });

  test('failures: one line with the kind, never the token', async () => {
    const run = await curated('20260101000000_fail');
    const none = await svc(['ear', 'promote', run, '--target', 'public'], { cwd, env: {} });
    expect(none.code).toBe(1);
    expect(none.stderr.trim()).toMatch(/^svc: promote failed \(not_found\): .*has no publish record/);

    const bad = 'svc_wrong_token_value_1234567890';
    const auth = await svc(['ear', 'publish', run], { cwd, env: { SVC_REGISTRY_URL: reg.url, SVC_REGISTRY_TOKEN: bad } });
    expect(auth.code).toBe(1);
    expect(auth.stderr).toContain('publish failed (auth)');
    expect(auth.stderr).not.toContain(bad);
    expect(auth.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(run, 'publish_record.json'))).toBe(false);

    const down = await svc(['ear', 'publish', run], { cwd, env: { SVC_REGISTRY_URL: 'http://127.0.0.1:9', SVC_REGISTRY_TOKEN: owner } });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('publish failed (network)');

    const unknown = await svc(['ear', 'publish', run, '--backend', 'ftp'], { cwd, env: {} });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('publish failed (invalid): unknown publish backend "ftp"');
    const empty = await svc(['ear', 'publish', run, '--backend', ''], { cwd, env: {} });
    expect(empty.code).toBe(2);

    const target = await svc(['ear', 'promote', run, '--target', 'staged'], { cwd, env: {} });
    expect(target.code).toBe(2);
    expect(target.stderr).toContain('--target must be public or unlisted');

    const raw = join(ckpts, '20260101000000_raw');
    mkdirSync(join(raw, 'ear'), { recursive: true });
    writeFileSync(join(raw, 'tree.json'), '{}');
    const uncurated = await svc(['ear', 'publish', raw, '--backend', 'local-tarball'], { cwd, env: {} });
    expect(uncurated.code).toBe(2);
    expect(uncurated.stderr).toContain('publish failed (invalid)');
    expect(uncurated.stderr).toContain('curate it first');
    const noCkpt = await svc(['ear', 'publish'], { cwd, env: {} });
    expect(noCkpt.code).toBe(2);
    expect(noCkpt.stderr).toContain('no checkpoint given');
    expect(readdirSync(cwd)).toEqual([]);
  });
});
