import { afterAll, afterEach, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { svcRegistry } from '../../../../src/ear/backends/svc-registry.ts';
import { startRegistryProtocolServer } from '../../../support/registry-protocol-server.ts';
import { bundleFixture } from './fixture.ts';

const OWNER = 'svc_ownertoken0123456789';
const OTHER = 'svc_othertoken0123456789';
const reg = startRegistryProtocolServer({ [OWNER]: 'alice', [OTHER]: 'bob' });
afterAll(() => reg.stop());
let fx = bundleFixture();
afterEach(() => {
  fx.cleanup();
  fx = bundleFixture();
  reg.requests.length = 0;
  reg.artifacts.clear();
});

const settings = (token = OWNER) => ({ url: reg.url, token, name: 'lab' });

test('publish streams the tarball with its SHA-256 and is staged', async () => {
  const i = fx.input({ settings: settings(), visibility: 'public' });
  const out = await svcRegistry.publish(i);
  const id = i.tarballSha256.slice(0, 16);
  expect(out).toEqual({
    ref: `svc://${id}`,
    visibility: 'staged',
    extra: { registry: reg.url, registry_name: 'lab', id, tarball_sha256: i.tarballSha256, size: 12, requested_visibility: 'public', duplicate: false, dry_run: false },
  });
  const r = reg.requests[0]!;
  expect(r.method).toBe('POST');
  expect(r.path).toBe('/artifact?visibility=staged');
  expect(r.headers['x-svc-sha256']).toBe(i.tarballSha256);
  expect(r.headers['content-type']).toBe('application/gzip');
  expect(reg.artifacts.get(id)?.size).toBe(12);
});

test('the same bytes again are a duplicate; by another user a conflict', async () => {
  await svcRegistry.publish(fx.input({ settings: settings() }));
  const again = await svcRegistry.publish(fx.input({ settings: settings() }));
  expect(again.extra.duplicate).toBe(true);
  const err = await svcRegistry.publish(fx.input({ settings: settings(OTHER) })).catch((e) => e);
  expect(err.kind).toBe('conflict');
});

test('url and token may come from SVC_REGISTRY_URL / SVC_REGISTRY_TOKEN', async () => {
  const out = await svcRegistry.publish(fx.input({ env: { SVC_REGISTRY_URL: `${reg.url}/`, SVC_REGISTRY_TOKEN: OWNER } }));
  expect(out.visibility).toBe('staged');
});

test('dry run sends nothing and says what the ref would be', async () => {
  const i = fx.input({ settings: settings(), dryRun: true });
  const out = await svcRegistry.publish(i);
  expect(out.ref).toBe(`svc://${i.tarballSha256.slice(0, 16)}`);
  expect(out.extra.dry_run).toBe(true);
  expect(reg.requests).toEqual([]);
  // a dry run needs no token
  expect((await svcRegistry.publish(fx.input({ settings: { url: reg.url }, dryRun: true }))).extra.dry_run).toBe(true);
});

test('an unknown token is an auth failure that never echoes the token', async () => {
  const bad = 'svc_wrongtoken_secret_value';
  const err = await svcRegistry.publish(fx.input({ settings: settings(bad) })).catch((e) => e);
  expect(err.kind).toBe('auth');
  expect(err.message).toContain('401');
  expect(err.message).not.toContain(bad);
  expect(err.message.includes('\n')).toBe(false);
});

test('no token: auth, before any request', async () => {
  const err = await svcRegistry.publish(fx.input({ settings: { url: reg.url } })).catch((e) => e);
  expect(err.kind).toBe('auth');
  expect(reg.requests).toEqual([]);
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

test('a tarball whose SHA-256 is wrong is refused by the registry', async () => {
  writeFileSync(fx.input().tarball, 'other bytes!');
  const err = await svcRegistry.publish(fx.input({ settings: settings() })).catch((e) => e);
  expect(err.kind).toBe('invalid');
});

test('promote to unlisted then public; the owner only', async () => {
  const out = await svcRegistry.publish(fx.input({ settings: settings() }));
  const record = { ref: out.ref, extra: out.extra };
  const notOwner = await svcRegistry.promote(record, 'public', {}, settings(OTHER)).catch((e) => e);
  expect(notOwner.kind).toBe('auth');
  expect(notOwner.message).toContain('403');
  expect(await svcRegistry.promote(record, 'unlisted', {}, settings())).toEqual({ visibility: 'unlisted', extra: { registry: reg.url, id: out.extra.id } });
  const last = reg.requests.at(-1)!;
  expect(last.path).toBe(`/artifact/${out.extra.id}/promote`);
  expect((await svcRegistry.promote(record, 'public', { SVC_REGISTRY_TOKEN: OWNER })).visibility).toBe('public');
  // demotion is refused by the registry (the caller refuses it before asking)
  expect((await svcRegistry.promote(record, 'unlisted', {}, settings()).catch((e) => e)).kind).toBe('conflict');
});

test('promote of an unknown id: not_found; of a record that is not svc://: invalid', async () => {
  const missing = await svcRegistry.promote({ ref: 'svc://0123456789abcdef', extra: { registry: reg.url } }, 'public', {}, settings()).catch((e) => e);
  expect(missing.kind).toBe('not_found');
  const bad = await svcRegistry.promote({ ref: 'file:///x', extra: { registry: reg.url } }, 'public', {}, settings()).catch((e) => e);
  expect(bad.kind).toBe('invalid');
});
