import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_FILE, type ManifestLock, manifestText } from '../manifest.ts';

/**
 * The manifest.lock bytes to publish beside the tarball: the checkpoint's own
 * `ear_published/manifest.lock` when it is this bundle's, else the manifest written as curate
 * writes it (sorted keys, two-space indentation, trailing newline).
 */
export function manifestBytes(checkpointDir: string, manifest: ManifestLock): string {
  try {
    const text = readFileSync(join(checkpointDir, 'ear_published', MANIFEST_FILE), 'utf8');
    if ((JSON.parse(text) as ManifestLock).bundle_sha256 === manifest.bundle_sha256) return text;
  } catch {
    /* absent or unreadable: write it out */
  }
  return manifestText(manifest);
}
