import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BackendError } from '../../../src/ear/backends/index.ts';
import { curateBundle } from '../../../src/ear/curate.ts';
import { isVisibility, publishPreview } from '../../../src/ear/publish-preview.ts';
import { backendStatus } from '../../../src/server/routes/publish.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let root: string;
let ckpt: string;
beforeEach(() => {
  root = tempDir();
  ckpt = join(root, 'run');
  mkdirSync(join(ckpt, 'ear', 'secrets'), { recursive: true });
  writeFileSync(join(ckpt, 'tree.json'), '{}');
  writeFileSync(join(ckpt, 'ear', 'a.txt'), 'aaaa');
  writeFileSync(join(ckpt, 'ear', 'b.txt'), 'bb');
  writeFileSync(join(ckpt, 'ear', 'secrets', 'k'), 'x');
});
afterEach(() => removeDir(root));

describe('publishPreview', () => {
  test('from manifest.lock alone: backend order, staged, digest, files and total size', async () => {
    writeFileSync(join(ckpt, 'ear', 'publish.yaml'), 'include: ["*.txt"]\nbackend: hosting-doi\nvisibility: unlisted\n');
    const c = await curateBundle(ckpt);
    if ('reason' in c) throw new Error('skipped');
    const before = readdirSync(ckpt).sort();
    const p = publishPreview(ckpt, { env: {} });
    expect(p).toMatchObject({ backend: 'hosting-doi', remote: true, visibility: 'staged', requested_visibility: 'unlisted', dry_run: false, bundle_sha256: c.bundle_sha256, file_count: 2, total_size: 6, excluded_count: 2, already_published: false });
    expect(p.files.map((f) => f.path)).toEqual(['a.txt', 'b.txt']);
    expect(readdirSync(ckpt).sort()).toEqual(before);
    expect(publishPreview(ckpt, { backend: 'local-tarball', env: { SVC_PUBLISH_DRYRUN: 'YES' } })).toMatchObject({ backend: 'local-tarball', remote: false, dry_run: true });
    writeFileSync(join(ckpt, 'publish_record.json'), '{}');
    expect(publishPreview(ckpt, { env: {} }).already_published).toBe(true);
  });

  test('without publish.yaml backend: svc-registry; bad backend, visibility, no bundle: invalid', async () => {
    expect(() => publishPreview(ckpt, { env: {} })).toThrow('no curated bundle');
    writeFileSync(join(ckpt, 'ear', 'publish.yaml'), 'include: ["*.txt"]\n');
    await curateBundle(ckpt);
    expect(publishPreview(ckpt, { env: {} }).backend).toBe('svc-registry');
    for (const o of [{ backend: 'ftp' }, { visibility: 'world' }, { visibility: 'embargoed-until:soon' }]) {
      const err = (() => {
        try {
          publishPreview(ckpt, { ...o, env: {} });
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(BackendError);
      expect((err as BackendError).kind).toBe('invalid');
    }
    expect(existsSync(join(ckpt, 'ear_bundle.tar.gz'))).toBe(false);
  });

  test('isVisibility and the status of each backend error kind', () => {
    for (const v of ['staged', 'public', 'unlisted', 'private-token', 'embargoed-until:2027-01-31']) expect(isVisibility(v)).toBe(true);
    for (const v of ['', 'Public', 'embargoed-until:2027-1-1', 'world']) expect(isVisibility(v)).toBe(false);
    expect(backendStatus(new BackendError('invalid', 'x'))).toBe(400);
    expect(backendStatus(new BackendError('auth', 'upload: HTTP 401 unknown token'))).toBe(401);
    expect(backendStatus(new BackendError('auth', 'promote: HTTP 403 not the owner'))).toBe(403);
    expect(backendStatus(new BackendError('auth', 'no token configured'))).toBe(401);
    expect(backendStatus(new BackendError('not_found', 'x'))).toBe(404);
    expect(backendStatus(new BackendError('conflict', 'x'))).toBe(409);
    expect(backendStatus(new BackendError('network', 'x'))).toBe(502);
  });
});
