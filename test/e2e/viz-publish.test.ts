import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startRegistryServer, type RegistryServer } from '../../src/registry/server.ts';
import { removeDir, svc, tempDir } from '../support/svc.ts';
import { writeEarCheckpoint } from '../support/checkpoint.ts';
import { startViz, type Viz } from '../support/viz.ts';

let dir: string;
let ckpts: string;
let reg: RegistryServer;
let alice: string;
let bob: string;
let viz: Viz;

/** A checkpoint with ear/ and publish.yaml naming `backend`, curated unless told otherwise. */
async function run(name: string, backend = 'svc-registry', curate = true): Promise<string> {
  const d = writeEarCheckpoint(join(ckpts, name), {
    'code/a.py': `a = "${name}"\n`,
    'data.csv': 'x\n1\n2\n',
    id_rsa: 'PRIVATE',
    'publish.yaml': `include: ["**/*"]\nbackend: ${backend}\nvisibility: public\n`,
  });
  if (curate) expect((await svc(['ear', 'curate', d], { cwd: dir, env: {} })).code).toBe(0);
  return d;
}

const registries = (d: string, url: string, token: string) => {
  mkdirSync(join(d, '.svc'), { recursive: true });
  writeFileSync(join(d, '.svc', 'registries.yaml'), `registries:\n  - name: lab\n    url: ${url}\n    token: ${token}\n`);
};

beforeAll(async () => {
  dir = tempDir();
  ckpts = join(dir, 'checkpoints');
  mkdirSync(ckpts);
  mkdirSync(join(dir, 'registry'));
  reg = startRegistryServer({ host: '127.0.0.1', port: 0, dataDir: join(dir, 'registry') });
  alice = reg.tokens.issue('alice').token;
  bob = reg.tokens.issue('bob').token;
  await run('20260101000000_reg');
  await run('20260101000000_local', 'local-tarball');
  await run('20260101000000_raw', 'svc-registry', false);
  viz = await startViz([ckpts], { cwd: dir, env: { SVC_REGISTRY_URL: reg.url, SVC_REGISTRY_TOKEN: alice } });
});
afterAll(async () => {
  await viz.stop();
  await reg.stop();
  removeDir(dir);
});

describe('/api/publish', () => {
  test('settings: round trip of the publish block; tokens and keys refused and never returned', async () => {
    const g = await viz.get('/api/publish/settings');
    expect(g.status).toBe(200);
    expect(g.body).toMatchObject({ publish: {}, backends: expect.arrayContaining(['svc-registry', 'local-tarball']) });
    const s = await viz.post('/api/publish/settings', { backend: 'local-tarball', visibility: 'staged', 'hosting-release': { repo: 'lab/bundles' } });
    expect(s.status).toBe(200);
    expect(s.body.publish).toEqual({ backend: 'local-tarball', visibility: 'staged', 'hosting-release': { repo: 'lab/bundles' } });
    const saved = JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'));
    expect(saved.publish).toEqual(s.body.publish);
    // a later POST merges; null removes a key
    const m = await viz.post('/api/publish/settings', { visibility: null, 'object-store': { bucket: 'b', region: 'eu-west-1' } });
    expect(m.body.publish).toEqual({ backend: 'local-tarball', 'hosting-release': { repo: 'lab/bundles' }, 'object-store': { bucket: 'b', region: 'eu-west-1' } });

    const before = readFileSync(join(dir, 'settings.json'), 'utf8');
    const secret = 'ghp_supersecretvalue123';
    const refused: [unknown, RegExp][] = [
      [{ token: secret }, /'publish\.token' looks like a secret.*\.env/],
      [{ 'hosting-release': { repo: 'a/b', token: secret } }, /publish\.hosting-release\.token/],
      [{ 'object-store': { secret_access_key: secret } }, /secret_access_key/],
      [{ 'hosting-doi': { api_key: secret } }, /api_key/],
      [{ backend: 'ftp' }, /unknown publish backend/],
      [{ backend: 3 }, /backend must be a string/],
      [{ visibility: 'world' }, /visibility must be/],
      [[1, 2], /body/],
      ['text', /body|JSON/],
    ];
    for (const [body, msg] of refused) {
      const r = await viz.post('/api/publish/settings', body);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatch(msg);
      expect(JSON.stringify(r.body)).not.toContain(secret);
    }
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).toBe(before);
    // a token put into settings.json by hand is never returned
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ ...JSON.parse(before), publish: { backend: 'svc-registry', token: secret, 'hosting-release': { repo: 'a/b', github_token: secret } } }));
    const h = await viz.get('/api/publish/settings');
    expect(h.status).toBe(200);
    expect(JSON.stringify(h.body)).not.toContain(secret);
    expect(h.body.publish).toEqual({ backend: 'svc-registry', 'hosting-release': { repo: 'a/b' } });
    writeFileSync(join(dir, 'settings.json'), before);
  });

  test('preview: backend, staged visibility, digest, files and total size, building nothing', async () => {
    const d = join(ckpts, '20260101000000_reg');
    const p = await viz.get('/api/publish/20260101000000_reg/preview');
    expect(p.status).toBe(200);
    const manifest = JSON.parse(readFileSync(join(d, 'ear_published', 'manifest.lock'), 'utf8'));
    expect(p.body).toMatchObject({ run_id: '20260101000000_reg', backend: 'svc-registry', remote: true, visibility: 'staged', requested_visibility: 'public', dry_run: false, bundle_sha256: manifest.bundle_sha256, excluded_count: 2, already_published: false });
    expect(p.body.files.map((f: { path: string }) => f.path)).toEqual(manifest.files.map((f: { path: string }) => f.path));
    expect(p.body.file_count).toBe(manifest.files.length);
    expect(p.body.total_size).toBe(manifest.files.reduce((n: number, f: { size: number }) => n + f.size, 0));
    expect(JSON.stringify(p.body)).not.toContain('id_rsa');
    expect(existsSync(join(d, 'ear_bundle.tar.gz'))).toBe(false);
    expect(existsSync(join(d, 'publish_record.json'))).toBe(false);
    expect(existsSync(join(dir, 'registry', 'artifacts')) ? readdirSync(join(dir, 'registry', 'artifacts')) : []).toEqual([]);

    const local = await viz.get('/api/publish/20260101000000_reg/preview?backend=local-tarball&visibility=unlisted');
    expect(local.body).toMatchObject({ backend: 'local-tarball', remote: false, requested_visibility: 'unlisted' });
    const bad = await viz.get('/api/publish/20260101000000_reg/preview?backend=nope');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('unknown publish backend');
    expect((await viz.get('/api/publish/20260101000000_reg/preview?visibility=world')).status).toBe(400);
    const raw = await viz.get('/api/publish/20260101000000_raw/preview');
    expect(raw.status).toBe(400);
    expect(raw.body.error).toContain('curate it first');
  });

  test('publish: a remote backend needs consent unless dry_run; local-tarball does not; then the record', async () => {
    const d = join(ckpts, '20260101000000_reg');
    expect((await viz.get('/api/publish/20260101000000_reg/record')).status).toBe(404);
    for (const body of [undefined, {}, { consent: false }, { backend: 'hosting-doi' }]) {
      const r = await viz.post('/api/publish/20260101000000_reg', body);
      expect(r.status).toBe(400);
      expect(r.body.error).toContain('consent: true');
    }
    expect(existsSync(join(d, 'publish_record.json'))).toBe(false);
    const dry = await viz.post('/api/publish/20260101000000_reg', { dry_run: true });
    expect(dry.status).toBe(200);
    expect(dry.body.record).toMatchObject({ backend: 'svc-registry', dry_run: true, visibility: 'staged' });
    expect(existsSync(join(dir, 'registry', 'artifacts')) ? readdirSync(join(dir, 'registry', 'artifacts')) : []).toEqual([]);

    const pub = await viz.post('/api/publish/20260101000000_reg', { consent: true });
    expect(pub.status).toBe(200);
    expect(pub.body.record).toMatchObject({ backend: 'svc-registry', visibility: 'staged', dry_run: false });
    expect(pub.body.record.ref).toMatch(/^svc:\/\/[0-9a-f]{16}$/);
    expect(JSON.stringify(pub.body)).not.toContain(alice);
    const rec = await viz.get('/api/publish/20260101000000_reg/record');
    expect(rec.status).toBe(200);
    expect(rec.body.record).toEqual(pub.body.record);
    expect(readFileSync(join(d, 'publish_record.json'), 'utf8')).not.toContain(alice);

    const local = await viz.post('/api/publish/20260101000000_local');
    expect(local.status).toBe(200);
    expect(local.body.record.ref).toStartWith(`file://${join(ckpts, '20260101000000_local', 'ear_bundle')}`);
    expect(readdirSync(dir).sort()).toEqual(['checkpoints', 'registry'].concat(existsSync(join(dir, 'settings.json')) ? ['settings.json'] : []).sort());
  });

  test('promote: staged to unlisted, demotion 409, bad target 400, no record 404', async () => {
    for (const body of [{ target: 'staged' }, { target: 'sideways' }, {}, { target: 1 }, { target: null }]) {
      const r = await viz.post('/api/publish/20260101000000_reg/promote', body);
      expect(r.status).toBe(400);
    }
    const u = await viz.post('/api/publish/20260101000000_reg/promote', { target: 'unlisted' });
    expect(u.status).toBe(200);
    expect(u.body.record).toMatchObject({ visibility: 'unlisted', promote_failed_at: null });
    const id = u.body.record.ref.slice('svc://'.length);
    const anon = await fetch(`${reg.url}/artifact/${id}`);
    expect(anon.headers.get('x-svc-visibility')).toBe('unlisted');
    await anon.arrayBuffer();
    const again = await viz.post('/api/publish/20260101000000_reg/promote', { target: 'unlisted' });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/^conflict: .*demotion is refused/);
    const pub = await viz.post('/api/publish/20260101000000_reg/promote', { target: 'public' });
    expect(pub.status).toBe(200);
    expect((await viz.post('/api/publish/20260101000000_reg/promote', { target: 'unlisted' })).status).toBe(409);
    const none = await viz.post('/api/publish/20260101000000_raw/promote', { target: 'public' });
    expect(none.status).toBe(404);
    expect(none.body.error).toContain('no publish record');
  });

  test('backend failures map to statuses: 401 unknown token, 404 the staged bundle of another user, 502 unreachable', async () => {
    const a = await run('20260101000000_badtoken');
    registries(a, reg.url, 'svc_not_a_token_0123456789');
    const r401 = await viz.post('/api/publish/20260101000000_badtoken', { consent: true });
    expect(r401.status).toBe(401);
    expect(r401.body.error).toStartWith('auth: ');
    expect(r401.body.error).not.toContain('svc_not_a_token_0123456789');

    const b = await run('20260101000000_owner');
    expect((await viz.post('/api/publish/20260101000000_owner', { consent: true })).status).toBe(200);
    registries(b, reg.url, bob);
    // a staged bundle of another user is not there for bob at all
    const r404 = await viz.post('/api/publish/20260101000000_owner/promote', { target: 'public' });
    expect(r404.status).toBe(404);
    const rec = await viz.get('/api/publish/20260101000000_owner/record');
    expect(rec.body.record).toMatchObject({ visibility: 'staged' });
    expect(typeof rec.body.record.promote_failed_at).toBe('string');

    const c = await run('20260101000000_down');
    registries(c, 'http://127.0.0.1:9', alice);
    const r502 = await viz.post('/api/publish/20260101000000_down', { consent: true });
    expect(r502.status).toBe(502);
    expect(r502.body.error).toStartWith('network: ');
  });

  test('bad bodies and run ids', async () => {
    const bodies: unknown[] = [{ consent: 'yes' }, { dry_run: 1 }, { backend: 5 }, { backend: 'nope', consent: true }, { visibility: 'world', consent: true }];
    for (const body of bodies) expect((await viz.post('/api/publish/20260101000000_local', body)).status).toBe(400);
    const raw = await viz.req('/api/publish/20260101000000_local', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"consent": ' });
    expect(raw.status).toBe(400);
    expect((await viz.req('/api/publish/20260101000000_local', { method: 'POST' })).status).toBe(400);
    for (const path of ['/api/publish/settings', '/api/publish/20260101000000_local/promote']) {
      const r = await viz.req(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"x": ' });
      expect(r.status).toBe(400);
    }
    expect(existsSync(join(ckpts, '20260101000000_local', 'publish_record.json'))).toBe(true);
    expect(JSON.parse(readFileSync(join(ckpts, '20260101000000_local', 'publish_record.json'), 'utf8')).visibility).toBe('staged');
    for (const id of ['..', '..%2F..%2Fetc', '%2E%2E', 'a%00b', '.hidden', 'a..b']) {
      for (const path of [`/api/publish/${id}/preview`, `/api/publish/${id}/record`]) expect([400, 404]).toContain((await viz.get(path)).status);
      expect([400, 404]).toContain((await viz.post(`/api/publish/${id}`, { dry_run: true })).status);
      expect([400, 404]).toContain((await viz.post(`/api/publish/${id}/promote`, { target: 'public' })).status);
    }
    expect((await viz.get('/api/publish/a..b/record')).status).toBe(400);
    expect((await viz.post('/api/publish/..%2Fx', { dry_run: true })).status).toBe(400);
    expect((await viz.get('/api/publish/20990101000000_missing/preview')).status).toBe(404);
  });
});
