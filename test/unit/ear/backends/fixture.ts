import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleDigest, type ManifestLock } from '../../../../src/ear/manifest.ts';
import type { PublishInput } from '../../../../src/ear/backends/types.ts';

/** A checkpoint with a small tarball beside it (the bytes need not be a real tar for the backends). */
export function bundleFixture(content = 'bundle bytes'): { dir: string; input(over?: Partial<PublishInput>): PublishInput; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-backends-'));
  const ckpt = join(dir, 'ckpt');
  mkdirSync(ckpt);
  const tarball = join(dir, 'build', 'bundle.tar.gz');
  mkdirSync(join(dir, 'build'));
  writeFileSync(tarball, content);
  const files = [{ path: 'README.md', size: 5, sha256: new Bun.CryptoHasher('sha256').update('hello').digest('hex') }];
  const manifest: ManifestLock = {
    version: 1,
    checkpoint_id: 'ckpt',
    created_at: '2026-01-01T00:00:00Z',
    publish: { visibility: 'staged', required: false, auto_promote: false, max_file_mb: 100, license: 'MIT', backend: 'local-tarball' },
    files,
    excluded_count: 0,
    bundle_sha256: bundleDigest(files),
  };
  const tarballSha256 = new Bun.CryptoHasher('sha256').update(content).digest('hex');
  return {
    dir,
    input: (over = {}) => ({ tarball, tarballSha256, manifest, visibility: 'staged', dryRun: false, checkpointDir: ckpt, env: {}, settings: {}, ...over }),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
