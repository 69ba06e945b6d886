import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeDir, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';

const RUN = '20260101000000_ear_run';
let dir: string;
let run: string;
let viz: Viz;

beforeAll(async () => {
  dir = tempDir();
  run = join(dir, 'checkpoints', RUN);
  mkdirSync(join(run, 'ear', 'code'), { recursive: true });
  writeFileSync(join(run, 'tree.json'), '{"nodes":[]}');
  writeFileSync(join(run, 'ear', 'code', 'a.py'), 'a = 1\n');
  writeFileSync(join(run, 'ear', 'id_rsa'), 'PRIVATE');
  mkdirSync(join(dir, 'checkpoints', 'not_a_run'));
  viz = await startViz([run], { cwd: dir });
});
afterAll(async () => {
  await viz.stop();
  removeDir(dir);
});

describe('/api/ear', () => {
  test('before any configuration: the publish-yaml default preview, curate skipped, metadata not curated', async () => {
    const y = await viz.get(`/api/ear/${RUN}/publish-yaml`);
    expect(y.status).toBe(200);
    expect(y.body).toMatchObject({ exists: false, error: null, config: { include: ['**/*'], visibility: 'staged' } });
    expect(y.body.yaml).toContain('include:');
    expect(existsSync(join(run, 'ear', 'publish.yaml'))).toBe(false);
    const c = await viz.post(`/api/ear/${RUN}/curate`);
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ skipped: true });
    const m = await viz.get(`/api/ear/${RUN}`);
    expect(m.body).toMatchObject({ run_id: RUN, curated: false, publish_configured: false, bundle_sha256: null });
  });

  test('save publish-yaml (text, then keys), curate, read the metadata', async () => {
    const s = await viz.post(`/api/ear/${RUN}/publish-yaml`, { yaml: 'include: ["code/**"]\nvisibility: unlisted\n' });
    expect(s.status).toBe(200);
    expect(readFileSync(join(run, 'ear', 'publish.yaml'), 'utf8')).toBe('include: ["code/**"]\nvisibility: unlisted\n');
    const k = await viz.post(`/api/ear/${RUN}/publish-yaml`, { config: { include: ['**/*'], backend: 'local-tarball' } });
    expect(k.status).toBe(200);
    expect(k.body.config).toEqual({ include: ['**/*'], backend: 'local-tarball' });
    const c = await viz.post(`/api/ear/${RUN}/curate`, { show_files: true });
    expect(c.status).toBe(200);
    expect(c.body.files.map((f: { path: string }) => f.path)).toEqual(['code/a.py']);
    expect(c.body).toMatchObject({ run_id: RUN, file_count: 1, excluded_count: 2, skipped: false });
    const m = await viz.get(`/api/ear/${RUN}`);
    expect(m.body).toMatchObject({ curated: true, bundle_sha256: c.body.bundle_sha256, file_count: 1, excluded_count: 2, curate_status: { status: 'curated' } });
    expect(m.body.publish).toMatchObject({ backend: 'local-tarball' });
    expect(JSON.stringify(m.body)).not.toContain('id_rsa');
  });

  test('bad publish-yaml is 400 naming the key and leaves the saved file', async () => {
    const before = readFileSync(join(run, 'ear', 'publish.yaml'), 'utf8');
    const cases: [unknown, RegExp][] = [
      [{ yaml: 'include: ["**/*"]\nvisibility: world\n' }, /publish\.yaml: visibility:/],
      [{ yaml: 'include: ["**/*"]\nlicense: Beerware\n' }, /publish\.yaml: license:/],
      [{ yaml: 'include: [x\n' }, /publish\.yaml:\d+:\d+/],
      [{ yaml: '' }, /publish\.yaml: is empty/],
      [{ config: { include: ['**/*'], max_file_mb: 0 } }, /publish\.yaml: max_file_mb:/],
      [{ config: { include: ['**/*'], extra: 1 } }, /publish\.yaml: extra: unknown key/],
      [{}, /either yaml/],
      [{ yaml: 'include: []', config: {} }, /either yaml/],
      [{ yaml: 42 }, /yaml/],
    ];
    for (const [body, message] of cases) {
      const r = await viz.post(`/api/ear/${RUN}/publish-yaml`, body);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatch(message);
    }
    expect(readFileSync(join(run, 'ear', 'publish.yaml'), 'utf8')).toBe(before);
    const raw = await viz.req(`/api/ear/${RUN}/publish-yaml`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"yaml": ' });
    expect(raw.status).toBe(400);
  });

  test('run ids: traversal and odd names 400, unknown and non-checkpoint 404', async () => {
    for (const id of ['..', '..%2F..%2Fetc', '%2E%2E', 'a%00b', '.hidden', 'a..b']) {
      for (const path of [`/api/ear/${id}`, `/api/ear/${id}/publish-yaml`]) {
        const r = await viz.get(path);
        expect([400, 404]).toContain(r.status);
        if (r.status === 404) expect(r.body.error).not.toContain('no run');
      }
      const p = await viz.post(`/api/ear/${id}/curate`);
      expect([400, 404]).toContain(p.status);
    }
    expect((await viz.get('/api/ear/a..b')).status).toBe(400);
    expect((await viz.post('/api/ear/..%2Fx/publish-yaml', { yaml: 'include: ["*"]' })).status).toBe(400);
    expect((await viz.get('/api/ear/20990101000000_missing')).status).toBe(404);
    expect((await viz.post('/api/ear/not_a_run/curate')).status).toBe(404);
    expect(existsSync(join(dir, 'checkpoints', 'x'))).toBe(false);
  });

  test('curate of an invalid saved file is 400 naming the key; oversize is 413 naming the file', async () => {
    writeFileSync(join(run, 'ear', 'publish.yaml'), 'include: ["**/*"]\nrequired: maybe\n');
    const bad = await viz.post(`/api/ear/${RUN}/curate`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('publish.yaml: required:');
    const view = await viz.get(`/api/ear/${RUN}/publish-yaml`);
    expect(view.body).toMatchObject({ exists: true, config: null });
    expect(view.body.error).toContain('required');
    writeFileSync(join(run, 'ear', 'publish.yaml'), 'include: ["**/*"]\nmax_file_mb: 1\n');
    writeFileSync(join(run, 'ear', 'big.bin'), new Uint8Array(1024 * 1024 + 10));
    const big = await viz.post(`/api/ear/${RUN}/curate`);
    expect(big.status).toBe(413);
    expect(big.body.error).toContain('ear/big.bin');
  });

  test('curate: a body is optional, but a malformed, non-object or wrong one is 400 and curates nothing', async () => {
    writeFileSync(join(run, 'ear', 'publish.yaml'), 'include: ["**/*"]\n');
    const before = existsSync(join(run, 'ear_published', 'manifest.lock')) ? readFileSync(join(run, 'ear_published', 'manifest.lock'), 'utf8') : null;
    writeFileSync(join(run, 'ear', 'code', 'new.py'), 'b = 2\n');
    const bodies: [string, string][] = [
      ['{"show_files": ', 'malformed request body'],
      ['[1]', 'body: Expected object'],
      ['"x"', 'body: Expected object'],
      ['{"show_files": "yes"}', 'show_files'],
      ['{"files": true}', 'body.files: Unexpected property'],
    ];
    for (const [body, why] of bodies) {
      const r = await viz.req(`/api/ear/${RUN}/curate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect([body, r.status]).toEqual([body, 400]);
      expect(((await r.json()) as { error: string }).error).toContain(why);
    }
    const after = existsSync(join(run, 'ear_published', 'manifest.lock')) ? readFileSync(join(run, 'ear_published', 'manifest.lock'), 'utf8') : null;
    expect(after).toBe(before);
    const ok = await viz.req(`/api/ear/${RUN}/curate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '' });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { file_count: number }).file_count).toBeGreaterThan(0);
  });
});
