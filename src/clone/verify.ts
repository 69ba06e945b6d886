import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidRecordError } from '../core/errors.ts';
import { hashFile } from '../core/file-hash.ts';
import { bundleDigest, bundleFiles, MANIFEST_FILE, type ManifestFile, MAX_MANIFEST_BYTES } from '../ear/manifest.ts';

const HEX64 = /^[0-9a-f]{64}$/;

export type VerifiedTree = { bundle_sha256: string; file_count: number; manifest_sha256: string; license: string | null };

function fail(why: string): InvalidRecordError {
  return new InvalidRecordError(`bundle verification failed: ${why}`, 'the bundle is damaged or was altered; nothing was kept');
}

/** Reads and checks the shape of manifest.lock; returns its file list and declared digest. */
function readLock(dir: string): { files: ManifestFile[]; declared: string; bytes: Buffer; license: string | null } {
  const path = join(dir, MANIFEST_FILE);
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(path);
  } catch {
    throw fail(`the bundle has no ${MANIFEST_FILE} at its root`);
  }
  if (!st.isFile()) throw fail(`${MANIFEST_FILE} is not a regular file`);
  if (st.size > MAX_MANIFEST_BYTES) throw fail(`${MANIFEST_FILE} is larger than ${MAX_MANIFEST_BYTES} bytes`);
  const bytes = readFileSync(path);
  let lock: unknown;
  try {
    lock = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw fail(`${MANIFEST_FILE} is not JSON`);
  }
  if (typeof lock !== 'object' || lock === null || Array.isArray(lock)) throw fail(`${MANIFEST_FILE} is not an object`);
  const { files, bundle_sha256, publish } = lock as Record<string, unknown>;
  if (typeof bundle_sha256 !== 'string' || !HEX64.test(bundle_sha256)) throw fail(`${MANIFEST_FILE} has no bundle_sha256`);
  if (!Array.isArray(files)) throw fail(`${MANIFEST_FILE} has no files list`);
  const seen = new Set<string>();
  const out = files.map((f, i) => {
    const r = f as Record<string, unknown>;
    if (typeof r !== 'object' || r === null || typeof r.path !== 'string' || typeof r.size !== 'number' || !Number.isSafeInteger(r.size) || r.size < 0 || typeof r.sha256 !== 'string' || !HEX64.test(r.sha256))
      throw fail(`${MANIFEST_FILE} file record ${i + 1} is not {path, size, sha256}`);
    if (r.path === '' || r.path.startsWith('/') || r.path.split('/').some((p) => p === '..' || p === '.' || p === '') || r.path === MANIFEST_FILE) throw fail(`${MANIFEST_FILE} lists an unusable path ${JSON.stringify(r.path)}`);
    if (seen.has(r.path)) throw fail(`${MANIFEST_FILE} lists ${r.path} twice`);
    seen.add(r.path);
    return { path: r.path, size: r.size, sha256: r.sha256 };
  });
  const lic = (publish as Record<string, unknown> | undefined)?.license;
  return { files: out, declared: bundle_sha256, bytes, license: typeof lic === 'string' && lic !== '' ? lic : null };
}

/**
 * Steps 3 and 4: every file listed in manifest.lock is present with its size and SHA-256, no file
 * is present that the lock does not list (manifest.lock aside), and the bundle digest recomputed
 * from the files equals the declared one.
 */
export async function verifyTree(dir: string): Promise<VerifiedTree> {
  const lock = readLock(dir);
  const present = new Set(bundleFiles(dir, (r) => fail(`${r} is not a regular file`)).filter((p) => p !== MANIFEST_FILE));
  const listed = new Set(lock.files.map((f) => f.path));
  const extra = [...present].filter((p) => !listed.has(p));
  if (extra.length > 0) throw fail(`${extra[0]} is in the bundle but not in ${MANIFEST_FILE}${extra.length > 1 ? ` (and ${extra.length - 1} more)` : ''}`);
  const actual: ManifestFile[] = [];
  for (const f of lock.files) {
    if (!present.has(f.path)) throw fail(`${f.path} is listed in ${MANIFEST_FILE} but missing`);
    const got = await hashFile(join(dir, f.path));
    if (got.size !== f.size) throw fail(`${f.path} has ${got.size} bytes, ${MANIFEST_FILE} says ${f.size}`);
    if (got.sha256 !== f.sha256) throw fail(`${f.path} does not match its SHA-256 in ${MANIFEST_FILE}`);
    actual.push({ path: f.path, size: got.size, sha256: got.sha256 });
  }
  const digest = bundleDigest(actual);
  if (digest !== lock.declared) throw fail(`the bundle digest is ${digest}, ${MANIFEST_FILE} declares ${lock.declared}`);
  const manifest_sha256 = new Bun.CryptoHasher('sha256').update(lock.bytes).digest('hex');
  return { bundle_sha256: digest, file_count: actual.length, manifest_sha256, license: lock.license };
}
