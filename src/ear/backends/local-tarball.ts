import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeStreamAtomic } from '../../core/atomic.ts';
import { BackendError, short16 } from './errors.ts';
import { hashingStream, tarballSize } from './tarball-file.ts';
import type { Backend, PublishInput, PublishOutcome } from './types.ts';

/** Where local-tarball keeps bundles, inside the checkpoint (never the working directory). */
export const LOCAL_BUNDLE_DIR = 'ear_bundle';

/** `<checkpoint>/ear_bundle/<bundle_sha256[:16]>.tar.gz`, absolute. */
export function localBundlePath(checkpointDir: string, bundleSha256: string): string {
  return resolve(checkpointDir, LOCAL_BUNDLE_DIR, `${short16(bundleSha256, 'bundle_sha256')}.tar.gz`);
}

/**
 * local-tarball: copies the tarball into the checkpoint, atomically, checking the copy's SHA-256.
 * The ref is `file://<absolute path>`. Visibility is only recorded: a local file has no audience.
 */
export const localTarball: Backend = {
  name: 'local-tarball',
  async publish(i: PublishInput): Promise<PublishOutcome> {
    const dest = localBundlePath(i.checkpointDir, i.manifest.bundle_sha256);
    const ref = pathToFileURL(dest).href;
    const size = tarballSize(i.tarball);
    const extra: Record<string, unknown> = { path: dest, tarball_sha256: i.tarballSha256, size, requested_visibility: i.visibility };
    if (i.dryRun) return { ref, visibility: 'staged', extra: { ...extra, dry_run: true } };
    const src = hashingStream(i.tarball);
    await writeStreamAtomic(dest, src.chunks);
    if (src.digest() !== i.tarballSha256) {
      rmSync(dest, { force: true });
      throw new BackendError('invalid', `bundle tarball ${i.tarball} does not match its SHA-256 ${i.tarballSha256.slice(0, 16)}…`, 'rebuild the bundle');
    }
    return { ref, visibility: 'staged', extra: { ...extra, dry_run: false } };
  },
  async promote(_record, target) {
    return { visibility: target, extra: {} };
  },
};

