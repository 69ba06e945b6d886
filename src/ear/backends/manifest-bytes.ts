import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_FILE, type ManifestLock } from '../manifest.ts';

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]));
  return v;
}

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
  return `${JSON.stringify(sortKeys(manifest), null, 2)}\n`;
}
