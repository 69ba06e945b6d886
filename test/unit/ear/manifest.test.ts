import { expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { bundleDigest } from '../../../src/ear/manifest.ts';

// The spec's digest, written out by hand: SHA-256 of the canonical JSON (sorted keys, no
// whitespace) of the path-sorted list of {path, size, sha256} records.
test('bundle_sha256 is the SHA-256 of the canonical JSON of the path-sorted records', () => {
  const a = { path: 'code/main.py', size: 9, sha256: 'a'.repeat(64) };
  const b = { path: 'README.md', size: 12, sha256: 'b'.repeat(64) };
  const canonical = `[{"path":"README.md","sha256":"${'b'.repeat(64)}","size":12},{"path":"code/main.py","sha256":"${'a'.repeat(64)}","size":9}]`;
  const expected = createHash('sha256').update(canonical).digest('hex');
  expect(bundleDigest([a, b])).toBe(expected);
  // the order the files were found in, and any other field, change nothing
  expect(bundleDigest([b, a])).toBe(expected);
  expect(bundleDigest([{ ...a, role: 'code' } as typeof a, b])).toBe(expected);
  // any byte of a record does
  expect(bundleDigest([{ ...a, size: 10 }, b])).not.toBe(expected);
});
