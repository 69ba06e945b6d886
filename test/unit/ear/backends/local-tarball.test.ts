import { afterEach, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BackendError } from '../../../../src/ear/backends/errors.ts';
import { localBundlePath, localTarball } from '../../../../src/ear/backends/local-tarball.ts';
import { bundleFixture } from './fixture.ts';

let fx = bundleFixture();
afterEach(() => {
  fx.cleanup();
  fx = bundleFixture();
});

test('publish copies the tarball into the checkpoint, staged, ref file://', async () => {
  const i = fx.input({ visibility: 'public' });
  const out = await localTarball.publish(i);
  const dest = localBundlePath(i.checkpointDir, i.manifest.bundle_sha256);
  expect(dest).toBe(join(i.checkpointDir, 'ear_bundle', `${i.manifest.bundle_sha256.slice(0, 16)}.tar.gz`));
  expect(out.ref).toBe(`file://${dest}`);
  expect(fileURLToPath(out.ref)).toBe(dest);
  expect(out.visibility).toBe('staged');
  expect(out.extra).toMatchObject({ dry_run: false, requested_visibility: 'public', tarball_sha256: i.tarballSha256, size: 12 });
  expect(readFileSync(dest, 'utf8')).toBe('bundle bytes');
  expect(readdirSync(join(i.checkpointDir, 'ear_bundle'))).toEqual([`${i.manifest.bundle_sha256.slice(0, 16)}.tar.gz`]);
  // not the working directory
  expect(existsSync(join(process.cwd(), 'bundle.tar.gz'))).toBe(false);
});

test('dry run writes nothing', async () => {
  const i = fx.input({ dryRun: true });
  const out = await localTarball.publish(i);
  expect(out.extra.dry_run).toBe(true);
  expect(out.ref.startsWith('file://')).toBe(true);
  expect(existsSync(join(i.checkpointDir, 'ear_bundle'))).toBe(false);
});

test('a tarball that does not match its SHA-256 leaves nothing', async () => {
  const i = fx.input({ tarballSha256: 'a'.repeat(64) });
  const err = await localTarball.publish(i).catch((e) => e);
  expect(err).toBeInstanceOf(BackendError);
  expect(err.kind).toBe('invalid');
  expect(readdirSync(join(i.checkpointDir, 'ear_bundle'))).toEqual([]);
});

test('a missing tarball is invalid', async () => {
  const err = await localTarball.publish(fx.input({ tarball: join(fx.dir, 'nope.tar.gz') })).catch((e) => e);
  expect(err.kind).toBe('invalid');
  expect(err.message).toContain('does not exist');
});

test('a bundle digest that is not hex is invalid', async () => {
  const i = fx.input();
  const err = await localTarball.publish({ ...i, manifest: { ...i.manifest, bundle_sha256: '../../etc' } }).catch((e) => e);
  expect(err.kind).toBe('invalid');
});

test('promote records the target only', async () => {
  expect(await localTarball.promote({ ref: 'file:///x.tar.gz', extra: {} }, 'unlisted', {})).toEqual({ visibility: 'unlisted', extra: {} });
  expect((await localTarball.promote({ ref: 'file:///x.tar.gz', extra: {} }, 'public', {})).visibility).toBe('public');
});
