import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson } from '../llm/cassette.ts';

/** One file of a curated bundle, relative to `ear/` (POSIX separators). */
export type ManifestFile = { path: string; size: number; sha256: string };

/** The publish settings a bundle was curated under, as manifest.lock records them. */
export type ManifestPublish = {
  visibility: string;
  required: boolean;
  auto_promote: boolean;
  max_file_mb: number;
  license: string | null;
  backend: string;
};

/**
 * manifest.lock: what a curated bundle holds. Written with sorted keys and 2-space indentation;
 * it records only the count of excluded files, never their paths. manifest.lock is not in `files`.
 */
export type ManifestLock = {
  version: 1;
  checkpoint_id: string;
  created_at: string;
  publish: ManifestPublish;
  files: ManifestFile[];
  excluded_count: number;
  bundle_sha256: string;
};

export const MANIFEST_FILE = 'manifest.lock';

/** manifest.lock is a small JSON file; a bigger one is not a curated bundle's. */
export const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;

/** Whether an archive entry's path names the bundle's own manifest.lock, at the archive's root. */
export const isRootManifest = (path: string): boolean => path.replace(/^(\.\/)+/, '') === MANIFEST_FILE;

/**
 * The bundle digest: SHA-256 of the canonical JSON (keys sorted, no whitespace) of the path-sorted
 * list of {path, size, sha256} records. It depends on the files only: not on times, visibility
 * or the order they were found in.
 */
export function bundleDigest(files: readonly ManifestFile[]): string {
  const records = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).map((f) => ({ path: f.path, size: f.size, sha256: f.sha256 }));
  return new Bun.CryptoHasher('sha256').update(canonicalJson(records)).digest('hex');
}

/** manifest.lock text: keys sorted at every level, two-space indentation, trailing newline. */
export function manifestText(m: ManifestLock): string {
  return `${JSON.stringify(sortKeys(m), null, 2)}\n`;
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]));
  return v;
}

/**
 * Every file under a bundle directory, as POSIX paths relative to it, names sorted within each
 * directory; any entry but a directory or a regular file (a symlink, a device) is `refuse`d.
 */
export function bundleFiles(dir: string, refuse: (rel: string, abs: string) => Error, rel = '', out: string[] = []): string[] {
  for (const name of readdirSync(join(dir, rel)).sort()) {
    const r = rel === '' ? name : `${rel}/${name}`;
    const st = lstatSync(join(dir, r));
    if (st.isDirectory()) bundleFiles(dir, refuse, r, out);
    else if (st.isFile()) out.push(r);
    else throw refuse(r, join(dir, r));
  }
  return out;
}
