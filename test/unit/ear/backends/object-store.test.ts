import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { S3Client } from 'bun';
import { objectStore, UNLISTED_URL_SECONDS } from '../../../../src/ear/backends/object-store.ts';
import { type LocalS3, startS3rver } from '../../../support/s3rver.ts';
import { bundleFixture } from './fixture.ts';

let s3: LocalS3;
beforeAll(async () => {
  s3 = await startS3rver();
});
afterAll(async () => {
  await s3?.stop();
});
let fx = bundleFixture();
afterEach(() => {
  fx.cleanup();
  fx = bundleFixture();
  s3.requests.length = 0;
});

const env = () => ({ AWS_ACCESS_KEY_ID: s3.accessKeyId, AWS_SECRET_ACCESS_KEY: s3.secretAccessKey });
const settings = () => ({ bucket: s3.bucket, endpoint: s3.endpoint, prefix: 'bundles/lab', region: 'us-east-1' });
const reader = () => new S3Client({ bucket: s3.bucket, endpoint: s3.endpoint, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, region: 'us-east-1' });

test('publish puts the tarball and manifest.lock under <prefix>/<bundle[:16]>/, private', async () => {
  const i = fx.input({ env: env(), settings: settings(), visibility: 'public' });
  const id = i.manifest.bundle_sha256.slice(0, 16);
  const out = await objectStore.publish(i);
  expect(out.ref).toBe(`s3://${s3.bucket}/bundles/lab/${id}/bundle.tar.gz`);
  expect(out.visibility).toBe('staged');
  expect(out.extra).toMatchObject({ key: `bundles/lab/${id}/bundle.tar.gz`, manifest_key: `bundles/lab/${id}/manifest.lock`, duplicate: false, dry_run: false, requested_visibility: 'public' });
  expect(await reader().file(`bundles/lab/${id}/bundle.tar.gz`).text()).toBe('bundle bytes');
  const manifest = JSON.parse(await reader().file(`bundles/lab/${id}/manifest.lock`).text());
  expect(manifest.bundle_sha256).toBe(i.manifest.bundle_sha256);
  const puts = s3.requests.filter((r) => r.method === 'PUT');
  expect(puts.length).toBeGreaterThanOrEqual(2);
  for (const p of puts) expect(p.headers['x-amz-acl'] ?? 'private').toBe('private');
});

test('the checkpoint manifest.lock is published as it is when it is this bundle', async () => {
  const i = fx.input({ env: env(), settings: settings() });
  mkdirSync(join(i.checkpointDir, 'ear_published'));
  const text = `${JSON.stringify({ bundle_sha256: i.manifest.bundle_sha256, marker: 1 })}\n`;
  writeFileSync(join(i.checkpointDir, 'ear_published', 'manifest.lock'), text);
  const out = await objectStore.publish(i);
  expect(await reader().file(out.extra.manifest_key as string).text()).toBe(text);
});

test('the same bundle again is a duplicate and not uploaded again', async () => {
  await objectStore.publish(fx.input({ env: env(), settings: settings() }));
  s3.requests.length = 0;
  const again = await objectStore.publish(fx.input({ env: env(), settings: settings() }));
  expect(again.extra.duplicate).toBe(true);
  expect(s3.requests.filter((r) => r.method === 'PUT' && r.path.includes('bundle.tar.gz'))).toEqual([]);
});

test('dry run sends nothing', async () => {
  const out = await objectStore.publish(fx.input({ env: {}, settings: settings(), dryRun: true }));
  expect(out.extra.dry_run).toBe(true);
  expect(out.ref.startsWith(`s3://${s3.bucket}/bundles/lab/`)).toBe(true);
  expect(s3.requests).toEqual([]);
});

test('promote unlisted: still private, a presigned URL anyone with it can fetch', async () => {
  const out = await objectStore.publish(fx.input({ env: env(), settings: settings() }));
  const p = await objectStore.promote({ ref: out.ref, extra: out.extra }, 'unlisted', env());
  expect(p.visibility).toBe('unlisted');
  const url = p.extra.url as string;
  expect(url).toContain('X-Amz-Signature=');
  expect(url).toContain(`X-Amz-Expires=${UNLISTED_URL_SECONDS}`);
  expect(await (await fetch(url)).text()).toBe('bundle bytes');
  expect(s3.requests.some((r) => r.headers['x-amz-acl'] === 'public-read')).toBe(false);
});

test('promote public: both objects copied onto themselves with public-read', async () => {
  const out = await objectStore.publish(fx.input({ env: env(), settings: settings() }));
  s3.requests.length = 0;
  const p = await objectStore.promote({ ref: out.ref, extra: out.extra }, 'public', env());
  expect(p.visibility).toBe('public');
  expect(p.extra.url).toBe(`${s3.endpoint}/${s3.bucket}/${out.extra.key}`);
  const copies = s3.requests.filter((r) => r.method === 'PUT');
  expect(copies.map((r) => r.headers['x-amz-acl'])).toEqual(['public-read', 'public-read']);
  expect(copies.map((r) => r.headers['x-amz-copy-source'])).toEqual([`/${s3.bucket}/${out.extra.key}`, `/${s3.bucket}/${out.extra.manifest_key}`]);
  expect(await (await fetch(p.extra.url as string)).text()).toBe('bundle bytes');
  expect(await reader().file(out.extra.key as string).text()).toBe('bundle bytes');
});

test('wrong credentials: auth, the secret never shown', async () => {
  const secret = 'wrong-secret-value-123';
  const err = await objectStore.publish(fx.input({ env: { AWS_ACCESS_KEY_ID: 'NOPE', AWS_SECRET_ACCESS_KEY: secret }, settings: settings() })).catch((e) => e);
  expect(err.kind).toBe('auth');
  expect(err.message).not.toContain(secret);
});

test('an unknown access key on promote: auth (s3rver checks the key id, not the SigV4 signature)', async () => {
  const out = await objectStore.publish(fx.input({ env: env(), settings: settings() }));
  const err = await objectStore.promote({ ref: out.ref, extra: out.extra }, 'public', { AWS_ACCESS_KEY_ID: 'NOPE', AWS_SECRET_ACCESS_KEY: 'nope-nope' }).catch((e) => e);
  expect(err.kind).toBe('auth');
  expect(err.message).not.toContain('nope-nope');
});

test('no credentials: auth before any request', async () => {
  const err = await objectStore.publish(fx.input({ env: {}, settings: settings() })).catch((e) => e);
  expect(err.kind).toBe('auth');
  expect(s3.requests).toEqual([]);
});

test('a missing bucket: not_found; an unreachable endpoint: network', async () => {
  const nb = await objectStore.publish(fx.input({ env: env(), settings: { ...settings(), bucket: 'no-such-bucket' } })).catch((e) => e);
  expect(nb.kind).toBe('not_found');
  const down = await objectStore.publish(fx.input({ env: env(), settings: { ...settings(), endpoint: 'http://127.0.0.1:9' } })).catch((e) => e);
  expect(down.kind).toBe('network');
});

test('promote of an object that is gone: not_found', async () => {
  const extra = { ...settings(), key: 'bundles/lab/0000000000000000/bundle.tar.gz', manifest_key: 'bundles/lab/0000000000000000/manifest.lock' };
  const err = await objectStore.promote({ ref: 's3://x', extra }, 'public', env()).catch((e) => e);
  expect(err.kind).toBe('not_found');
});
