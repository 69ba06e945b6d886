import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { svcRegistry } from '../../../../src/ear/backends/svc-registry.ts';
import type { PublishInput } from '../../../../src/ear/backends/types.ts';
import { MANIFEST_FILE } from '../../../../src/ear/manifest.ts';
import { makeBundle } from '../../../support/bundle.ts';
import { startTestRegistry, type TestRegistry } from '../../../support/registry-server.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';

// the real registry (src/registry/server.ts) in process, with real bundle tarballs (manifest.lock at the root)
let root: string;
let reg: TestRegistry;
let OWNER: string;
let OTHER: string;
let n = 0;
beforeAll(() => {
  root = tempDir('svc-backend-registry-');
  reg = startTestRegistry(root);
  OWNER = reg.token('alice');
  OTHER = reg.token('bob');
});
afterAll(async () => {
  await reg.stop();
  removeDir(root);
});

type Fixture = { tarball: string; sha: string; size: number; input(over?: Partial<PublishInput>): PublishInput };
let fx: Fixture;
/** A fresh bundle (its own bytes, so its own id) per test. */
async function fixture(): Promise<Fixture> {
  const dir = join(root, `b${++n}`);
  const { lock, tarball } = await makeBundle(dir, { 'code/run.py': `print(${n})\n`, 'README.md': `bundle ${n}\n` });
  const bytes = readFileSync(tarball);
  const sha = new Bun.CryptoHasher('sha256').update(bytes).digest('hex');
  return { tarball, sha, size: bytes.length, input: (over = {}) => ({ tarball, tarballSha256: sha, manifest: lock, visibility: 'staged', dryRun: false, checkpointDir: dir, env: {}, settings: {}, ...over }) };
}
afterEach(async () => {
  fx = await fixture();
});
beforeAll(async () => {
  fx = await fixture();
});

const settings = (token = OWNER) => ({ url: reg.url, token, name: 'lab' });

test('publish streams the tarball with its SHA-256 and is staged; the registry holds the bytes and manifest.lock', async () => {
  const i = fx.input({ settings: settings(), visibility: 'public' });
  const out = await svcRegistry.publish(i);
  const id = fx.sha.slice(0, 16);
  expect(out).toEqual({
    ref: `svc://${id}`,
    visibility: 'staged',
    extra: { registry: reg.url, registry_name: 'lab', id, tarball_sha256: fx.sha, size: fx.size, requested_visibility: 'public', duplicate: false, dry_run: false },
  });
  expect(reg.artifacts()).toContain(id);
  const meta = reg.server.store.meta(id);
  expect(meta).toMatchObject({ id, owner: 'alice', visibility: 'staged', sha256: fx.sha, size: fx.size });
  expect(readFileSync(reg.server.store.file(id, 'bundle.tar.gz')).equals(readFileSync(fx.tarball))).toBe(true);
  expect(JSON.parse(readFileSync(reg.server.store.file(id, MANIFEST_FILE), 'utf8')).bundle_sha256).toBe(i.manifest.bundle_sha256);
  // the owner reads it back with the headers the protocol promises; to anyone else it is not there while staged
  const head = await fetch(`${reg.url}/artifact/${id}`, { method: 'HEAD', headers: { Authorization: `Bearer ${OWNER}` } });
  expect([head.status, head.headers.get('x-svc-sha256'), head.headers.get('x-svc-visibility'), head.headers.get('content-length'), head.headers.get('content-type')]).toEqual([200, fx.sha, 'staged', String(fx.size), 'application/gzip']);
  expect((await fetch(`${reg.url}/artifact/${id}`, { headers: { Authorization: `Bearer ${OTHER}` } })).status).toBe(404);
});

test('the same bytes again are a duplicate; by another user, answered as a first upload while the bundle stays staged and alice\'s', async () => {
  const first = await svcRegistry.publish(fx.input({ settings: settings() }));
  const again = await svcRegistry.publish(fx.input({ settings: settings() }));
  expect(again.extra.duplicate).toBe(true);
  const other = await svcRegistry.publish(fx.input({ settings: settings(OTHER) }));
  expect(other).toEqual(first);
  expect(reg.server.store.meta(fx.sha.slice(0, 16))).toMatchObject({ owner: 'alice', visibility: 'staged' });
});

test('url and token may come from SVC_REGISTRY_URL / SVC_REGISTRY_TOKEN', async () => {
  const out = await svcRegistry.publish(fx.input({ env: { SVC_REGISTRY_URL: `${reg.url}/`, SVC_REGISTRY_TOKEN: OWNER } }));
  expect(out.visibility).toBe('staged');
  expect(reg.artifacts()).toContain(fx.sha.slice(0, 16));
});

test('dry run sends nothing and says what the ref would be', async () => {
  const before = reg.artifacts();
  const i = fx.input({ settings: settings(), dryRun: true });
  const out = await svcRegistry.publish(i);
  expect(out.ref).toBe(`svc://${fx.sha.slice(0, 16)}`);
  expect(out.extra.dry_run).toBe(true);
  // a dry run needs no token
  expect((await svcRegistry.publish(fx.input({ settings: { url: reg.url }, dryRun: true }))).extra.dry_run).toBe(true);
  expect(reg.artifacts()).toEqual(before);
  expect(reg.artifacts()).not.toContain(fx.sha.slice(0, 16));
});

test('a dry run against a fresh registry leaves its data dir empty', async () => {
  const fresh = startTestRegistry(root, 'fresh');
  try {
    await svcRegistry.publish(fx.input({ settings: { url: fresh.url, token: fresh.token('alice') }, dryRun: true }));
    expect(fresh.artifacts()).toEqual([]);
    expect(readdirSync(fresh.server.store.tmp)).toEqual([]);
    expect((await fetch(`${fresh.url}/artifact/${fx.sha.slice(0, 16)}`, { method: 'HEAD' })).status).toBe(404);
  } finally {
    await fresh.stop();
  }
});

test('an unknown token is an auth failure that never echoes the token', async () => {
  const bad = 'svc_wrongtoken_secret_value';
  const err = await svcRegistry.publish(fx.input({ settings: settings(bad) })).catch((e) => e);
  expect(err.kind).toBe('auth');
  expect(err.message).toContain('401');
  expect(err.message).not.toContain(bad);
  expect(err.message.includes('\n')).toBe(false);
  expect(reg.artifacts()).not.toContain(fx.sha.slice(0, 16));
});

test('a revoked token is refused (401)', async () => {
  const issued = reg.server.tokens.issue('carol');
  reg.server.tokens.revoke(issued.record.id);
  const err = await svcRegistry.publish(fx.input({ settings: settings(issued.token) })).catch((e) => e);
  expect(err.kind).toBe('auth');
  expect(err.message).toContain('401');
});

test('no token: auth, before any request', async () => {
  const err = await svcRegistry.publish(fx.input({ settings: { url: reg.url } })).catch((e) => e);
  expect(err.kind).toBe('auth');
  expect(reg.artifacts()).not.toContain(fx.sha.slice(0, 16));
});

test('no url, or not http(s): invalid', async () => {
  expect((await svcRegistry.publish(fx.input()).catch((e) => e)).kind).toBe('invalid');
  expect((await svcRegistry.publish(fx.input({ settings: { url: 'ftp://x', token: OWNER } })).catch((e) => e)).kind).toBe('invalid');
  expect((await svcRegistry.publish(fx.input({ settings: { url: 'not a url', token: OWNER } })).catch((e) => e)).kind).toBe('invalid');
});

test('a registry that is not there: network', async () => {
  const err = await svcRegistry.publish(fx.input({ settings: { url: 'http://127.0.0.1:9', token: OWNER } })).catch((e) => e);
  expect(err.kind).toBe('network');
  expect(err.message).not.toContain(OWNER);
});

test('X-Svc-Sha256 is sent: a valid bundle whose bytes are not the SHA-256 given is refused by the registry, which keeps nothing', async () => {
  const before = reg.artifacts();
  // another real bundle in its place: only the X-Svc-Sha256 check can tell
  const other = await fixture();
  writeFileSync(fx.tarball, readFileSync(other.tarball));
  const err = await svcRegistry.publish(fx.input({ settings: settings() })).catch((e) => e);
  expect(err.kind).toBe('invalid');
  expect(reg.artifacts()).toEqual(before);
});

test('promote to unlisted then public; the owner only', async () => {
  const out = await svcRegistry.publish(fx.input({ settings: settings() }));
  const id = out.extra.id as string;
  const record = { ref: out.ref, extra: out.extra };
  // staged, it does not exist for another user
  const notOwner = await svcRegistry.promote(record, 'public', {}, settings(OTHER)).catch((e) => e);
  expect(notOwner.kind).toBe('not_found');
  expect(reg.server.store.meta(id)?.visibility).toBe('staged');
  expect(await svcRegistry.promote(record, 'unlisted', {}, settings())).toEqual({ visibility: 'unlisted', extra: { registry: reg.url, id } });
  expect(reg.server.store.meta(id)?.visibility).toBe('unlisted');
  // once others may read it, another user is refused as not its owner
  const refused = await svcRegistry.promote(record, 'public', {}, settings(OTHER)).catch((e) => e);
  expect([refused.kind, refused.message.includes('403')]).toEqual(['auth', true]);
  expect((await svcRegistry.promote(record, 'public', { SVC_REGISTRY_TOKEN: OWNER })).visibility).toBe('public');
  expect(reg.server.store.meta(id)?.visibility).toBe('public');
  // public: anyone reads it, without a token
  const got = await fetch(`${reg.url}/artifact/${id}`);
  expect([got.status, got.headers.get('x-svc-visibility')]).toEqual([200, 'public']);
  expect(Buffer.from(await got.arrayBuffer()).equals(readFileSync(fx.tarball))).toBe(true);
  // demotion is refused by the registry (the caller refuses it before asking)
  expect((await svcRegistry.promote(record, 'unlisted', {}, settings()).catch((e) => e)).kind).toBe('conflict');
  expect(reg.server.store.meta(id)?.visibility).toBe('public');
});

test('promote of an unknown id: not_found; of a record that is not svc://: invalid', async () => {
  const missing = await svcRegistry.promote({ ref: 'svc://0123456789abcdef', extra: { registry: reg.url } }, 'public', {}, settings()).catch((e) => e);
  expect(missing.kind).toBe('not_found');
  const bad = await svcRegistry.promote({ ref: 'file:///x', extra: { registry: reg.url } }, 'public', {}, settings()).catch((e) => e);
  expect(bad.kind).toBe('invalid');
});
