import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { RegistryClient, RegistryError } from '../../../src/registry/client.ts';
import { type RegistryServer, startRegistryServer } from '../../../src/registry/server.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { makeBundle, makeTarball, rawRequest } from './bundles.ts';

let dir: string;
let root: string;
let server: RegistryServer;
let alice: string;
let bob: string;
let revoked: string;

beforeAll(() => {
  dir = tempDir('svc-registry-');
  root = join(dir, 'data');
  mkdirSync(root);
  server = startRegistryServer({ host: '127.0.0.1', port: 0, dataDir: root, maxUploadBytes: 64 * 1024 });
  alice = server.tokens.issue('alice').token;
  bob = server.tokens.issue('bob').token;
  const r = server.tokens.issue('carol');
  server.tokens.revoke(r.record.id);
  revoked = r.token;
});
afterAll(async () => {
  await server.stop();
  removeDir(dir);
});

const client = (token?: string) => new RegistryClient({ url: server.url, token });
const call = (method: string, path: string, token?: string, init: RequestInit = {}) =>
  fetch(`${server.url}${path}`, { ...init, method, headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(init.headers as Record<string, string>) } });

/** Uploads a fresh bundle as alice and promotes it to `visibility` (staged: left as uploaded). */
async function published(tag: string, visibility: string): Promise<string> {
  const { id } = await client(alice).upload(await makeBundle(dir, tag));
  if (visibility !== 'staged') expect((await client(alice).promote(id, visibility)).visibility).toBe(visibility);
  return id;
}

async function status(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (err) {
    if (err instanceof RegistryError) return err.status;
    throw err;
  }
}

/** GET, HEAD and GET manifest.lock of `id` as `token`: their three statuses. */
async function reads(id: string, token?: string): Promise<number[]> {
  return [(await call('GET', `/artifact/${id}`, token)).status, (await call('HEAD', `/artifact/${id}`, token)).status, (await call('GET', `/artifact/${id}/manifest.lock`, token)).status];
}

const tmpEmpty = () => readdirSync(join(root, 'tmp')).length === 0;

describe('registry server', () => {
  test('health and version', async () => {
    expect(await (await call('GET', '/healthz')).json()).toEqual({ ok: true });
    expect(await (await call('GET', '/version')).json()).toMatchObject({ service: 'svc-registry' });
  });

  test('upload, then download, head and manifest through the client', async () => {
    const file = await makeBundle(dir, 'roundtrip');
    const bytes = readFileSync(file);
    const sha = new Bun.CryptoHasher('sha256').update(bytes).digest('hex');
    const up = await client(alice).upload(file, 'public');
    expect(up).toEqual({ id: sha.slice(0, 16), ref: `svc://${sha.slice(0, 16)}`, visibility: 'staged', sha256: sha, size: bytes.length, duplicate: false });
    const stored = join(root, 'artifacts', up.id);
    expect(readdirSync(stored).sort()).toEqual(['bundle.tar.gz', 'manifest.lock', 'meta.json']);
    expect(JSON.parse(readFileSync(join(stored, 'meta.json'), 'utf8'))).toMatchObject({ id: up.id, visibility: 'staged', owner: 'alice', sha256: sha, size: bytes.length, promoted_at: null });
    const head = await call('HEAD', `/artifact/${up.id}`, alice);
    expect([head.status, head.headers.get('x-svc-sha256'), head.headers.get('content-length'), head.headers.get('x-svc-visibility')]).toEqual([200, sha, String(bytes.length), 'staged']);
    expect(await (await call('GET', `/artifact/${up.id}/manifest.lock`, alice)).text()).toBe('{"version":1,"tag":"roundtrip"}\n');
    const out = join(dir, 'out', 'got.tar.gz');
    expect(await client(alice).download(up.id, out)).toEqual({ sha256: sha, size: bytes.length, visibility: 'staged' });
    expect(readFileSync(out).equals(bytes)).toBe(true);
    const res = await call('GET', `/artifact/${up.id}`, alice);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    expect(res.headers.get('x-svc-sha256')).toBe(sha);
    expect(res.headers.get('x-svc-visibility')).toBe('staged');
    expect((await call('HEAD', '/artifact/0000000000000000', alice)).status).toBe(404);
  });

  test('tokens: missing, unknown and revoked are 401; a valid token of another user is 403', async () => {
    const file = await makeBundle(dir, 'auth');
    expect(await status(client().upload(file))).toBe(401);
    expect(await status(client('svc_unknown').upload(file))).toBe(401);
    expect(await status(client(revoked).upload(file))).toBe(401);
    expect(((await (await call('POST', '/artifact', revoked, { body: 'x' })).json()) as { error: string }).error).toContain('revoked');
    expect((await call('POST', '/artifact', undefined, { body: 'x', headers: { Authorization: 'Basic abc' } })).status).toBe(401);
    const { id } = await client(alice).upload(file);
    // staged, the bundle does not exist for bob; once others may read it, he is refused as not its owner
    expect(await status(client(bob).promote(id, 'public'))).toBe(404);
    expect((await call('DELETE', `/artifact/${id}`, bob)).status).toBe(404);
    await client(alice).promote(id, 'unlisted');
    expect(await status(client(bob).promote(id, 'public'))).toBe(403);
    expect((await call('DELETE', `/artifact/${id}`, bob)).status).toBe(403);
    expect((await call('DELETE', `/artifact/${id}`, revoked)).status).toBe(401);
    expect(await status(client().promote(id, 'public'))).toBe(401);
    // a bad token is refused even where none is needed
    await client(alice).promote(id, 'public');
    expect((await call('GET', `/artifact/${id}`, 'svc_wrong')).status).toBe(401);
    expect((await call('GET', `/artifact/${id}`, revoked)).status).toBe(401);
  });

  test('staged: owner only, for GET, HEAD and manifest.lock alike; to anyone else it is absent (404, as an unknown id)', async () => {
    const id = await published('staged', 'staged');
    expect(await reads(id)).toEqual([404, 404, 404]);
    expect(await reads(id, bob)).toEqual([404, 404, 404]);
    expect(await reads(id, alice)).toEqual([200, 200, 200]);
    const unknown = 'ffffffffffffffff';
    for (const token of [undefined, bob]) {
      const [staged, never] = await Promise.all([call('GET', `/artifact/${id}`, token), call('GET', `/artifact/${unknown}`, token)]);
      expect((await staged.text()).replace(id, 'ID')).toBe((await never.text()).replace(unknown, 'ID'));
    }
  });

  test('unlisted and public: anyone with the id', async () => {
    for (const v of ['unlisted', 'public']) {
      const id = await published(v, v);
      expect(await reads(id)).toEqual([200, 200, 200]);
      expect(await reads(id, bob)).toEqual([200, 200, 200]);
      expect(await reads(id, alice)).toEqual([200, 200, 200]);
    }
  });

  test('private-token: any valid token', async () => {
    const id = await published('private', 'private-token');
    expect(await reads(id)).toEqual([401, 401, 401]);
    expect(await reads(id, revoked)).toEqual([401, 401, 401]);
    expect(await reads(id, bob)).toEqual([200, 200, 200]);
  });

  test('embargoed: refused until the date, served once it has passed', async () => {
    const future = await published('future', 'embargoed-until:2999-01-01');
    expect(await reads(future)).toEqual([403, 403, 403]);
    expect(await reads(future, bob)).toEqual([403, 403, 403]);
    expect(await reads(future, alice)).toEqual([200, 200, 200]);
    const past = await published('past', 'embargoed-until:2000-01-01');
    expect(await reads(past)).toEqual([200, 200, 200]);
    expect((await call('HEAD', `/artifact/${past}`)).headers.get('x-svc-visibility')).toBe('embargoed-until:2000-01-01');
    expect((await client(alice).promote(future, 'public')).visibility).toBe('public');
    expect(await reads(future)).toEqual([200, 200, 200]);
  });

  test('promotion records promoted_at; demotion and bad targets are refused', async () => {
    const id = await published('promote', 'unlisted');
    const meta = JSON.parse(readFileSync(join(root, 'artifacts', id, 'meta.json'), 'utf8'));
    expect(meta.visibility).toBe('unlisted');
    expect(meta.promoted_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await status(client(alice).promote(id, 'staged'))).toBe(409);
    expect(await status(client(alice).promote(id, 'private-token'))).toBe(409);
    expect((await client(alice).promote(id, 'public')).visibility).toBe('public');
    expect(await status(client(alice).promote(id, 'unlisted'))).toBe(409);
    expect((await client(alice).promote(id, 'public')).visibility).toBe('public');
    expect(await status(client(alice).promote(id, 'everyone'))).toBe(400);
    expect(await status(client(alice).promote(id, 'embargoed-until:2027-02-31'))).toBe(400);
    expect((await call('POST', `/artifact/${id}/promote`, alice, { body: 'not json' })).status).toBe(400);
    // the JSON body as `curl -d` sends it, declared a form, is read as JSON
    const asForm = await call('POST', `/artifact/${id}/promote`, alice, { body: '{"target": "public"}', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect([asForm.status, await asForm.json()]).toEqual([200, { id, visibility: 'public' }]);
    expect(await status(client(alice).promote('0000000000000000', 'public'))).toBe(404);
  });

  test('duplicate upload of a bundle others may read: the record back, for the owner and anyone else', async () => {
    const file = await makeBundle(dir, 'dup');
    const first = await client(alice).upload(file);
    await client(alice).promote(first.id, 'unlisted');
    expect(await client(alice).upload(file)).toEqual({ ...first, visibility: 'unlisted', duplicate: true });
    const other = await call('POST', '/artifact', bob, { body: Bun.file(file) });
    expect(other.status).toBe(200);
    expect(await other.json()).toEqual({ ...first, visibility: 'unlisted', duplicate: true });
    expect(JSON.parse(readFileSync(join(root, 'artifacts', first.id, 'meta.json'), 'utf8')).owner).toBe('alice');
    expect(tmpEmpty()).toBe(true);
  });

  test("another user's staged bundle: a stranger's upload of the same bytes is answered as a first upload, and changes nothing", async () => {
    const file = await makeBundle(dir, 'dup-staged');
    const first = await client(alice).upload(file);
    const meta = readFileSync(join(root, 'artifacts', first.id, 'meta.json'), 'utf8');
    const other = await call('POST', '/artifact', bob, { body: Bun.file(file) });
    expect(other.status).toBe(201);
    expect(await other.json()).toEqual(first);
    expect(readFileSync(join(root, 'artifacts', first.id, 'meta.json'), 'utf8')).toBe(meta);
    // the owner's own retry is still the duplicate it is
    expect(await client(alice).upload(file)).toEqual({ ...first, duplicate: true });
    expect(tmpEmpty()).toBe(true);
  });

  test('delete: owner only, then 404', async () => {
    const id = await published('delete', 'public');
    const gone = await call('DELETE', `/artifact/${id}`, alice);
    expect([gone.status, await gone.json()]).toEqual([200, { deleted: id }]);
    expect(existsSync(join(root, 'artifacts', id))).toBe(false);
    expect((await call('GET', `/artifact/${id}`)).status).toBe(404);
    expect((await call('DELETE', `/artifact/${id}`, alice)).status).toBe(404);
  });

  test('an X-Svc-Sha256 that does not match is 400 and stores nothing', async () => {
    const file = await makeBundle(dir, 'mismatch');
    const before = readdirSync(join(root, 'artifacts')).length;
    const res = await call('POST', '/artifact', alice, { body: Bun.file(file), headers: { 'X-Svc-Sha256': '0'.repeat(64) } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain('X-Svc-Sha256');
    expect((await call('POST', '/artifact', alice, { body: Bun.file(file), headers: { 'X-Svc-Sha256': 'xyz' } })).status).toBe(400);
    expect(readdirSync(join(root, 'artifacts')).length).toBe(before);
    expect(tmpEmpty()).toBe(true);
  });

  test('uploads without manifest.lock at the root, or not gzip tarballs, are 400', async () => {
    const nested = await makeTarball(dir, join(dir, 'nested.tar.gz'), { 'sub/manifest.lock': '{}', 'a.txt': 'a' });
    const none = await makeTarball(dir, join(dir, 'none.tar.gz'), { 'a.txt': 'a' });
    const before = readdirSync(join(root, 'artifacts')).length;
    for (const f of [nested, none]) expect(await status(client(alice).upload(f))).toBe(400);
    expect((await call('POST', '/artifact', alice, { body: 'plain text, not a tarball' })).status).toBe(400);
    expect((await call('POST', '/artifact', alice, { body: readFileSync(none).subarray(0, 40) })).status).toBe(400);
    expect((await call('POST', '/artifact', alice)).status).toBe(400);
    expect((await call('POST', '/artifact?visibility=everyone', alice, { body: 'x' })).status).toBe(400);
    expect(readdirSync(join(root, 'artifacts')).length).toBe(before);
    expect(tmpEmpty()).toBe(true);
  });

  test('an upload over the limit is 413, with or without Content-Length', async () => {
    const big = Buffer.alloc(64 * 1024 + 1, 1);
    expect((await call('POST', '/artifact', alice, { body: big })).status).toBe(413);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 20; i++) c.enqueue(new Uint8Array(8 * 1024));
        c.close();
      },
    });
    const res = await call('POST', '/artifact', alice, { body: stream });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toContain('limit');
    expect(tmpEmpty()).toBe(true);
  });

  test('ids that are not 16 lowercase hex are 400, path traversal included; unknown ids 404', async () => {
    for (const bad of ['abc', 'ABCDEF0123456789', '0123456789abcdef0', '%2e%2e%2f%2e%2e%2fetc', '..%2f..%2fdata', '0123456789abcdeg', '%zz']) {
      expect((await call('GET', `/artifact/${bad}`)).status).toBe(400);
      expect((await call('DELETE', `/artifact/${bad}`, alice)).status).toBe(400);
    }
    expect((await call('GET', '/artifact/0123456789abcdef')).status).toBe(404);
    expect((await call('GET', '/artifact/0123456789abcdef/manifest.lock')).status).toBe(404);
    expect((await call('GET', '/artifact/0123456789abcdef/../../tokens.db')).status).toBe(404);
    expect((await call('GET', '/nothing')).status).toBe(404);
    expect((await call('PUT', '/artifact')).status).toBe(405);
  });

  test('a client going away mid-body leaves no artifact and no temp file', async () => {
    const file = await makeBundle(dir, 'aborted');
    const bytes = readFileSync(file);
    const before = readdirSync(join(root, 'artifacts')).sort();
    const head = `POST /artifact HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer ${alice}\r\nContent-Type: application/gzip\r\nContent-Length: ${bytes.length + 1000}\r\n\r\n`;
    await rawRequest(server.port, Buffer.concat([Buffer.from(head), bytes]), { closeAfterMs: 50 });
    for (let i = 0; i < 100 && !tmpEmpty(); i++) await Bun.sleep(20);
    expect(tmpEmpty()).toBe(true);
    expect(readdirSync(join(root, 'artifacts')).sort()).toEqual(before);
    // the server goes on serving
    expect((await call('GET', '/healthz')).status).toBe(200);
  });

  test('bound to loopback, it answers only loopback Host names', async () => {
    for (const host of ['evil.example', '127.0.0.1.evil.example', 'evil.example:80']) {
      expect(await rawRequest(server.port, `GET /healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)).toStartWith('HTTP/1.1 421');
    }
    for (const host of ['localhost', `127.0.0.1:${server.port}`, '[::1]:9']) {
      expect(await rawRequest(server.port, `GET /healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)).toStartWith('HTTP/1.1 200');
    }
  });

  test('a second server on the same data root in the same process is refused, and the first keeps it', async () => {
    expect(() => startRegistryServer({ host: '127.0.0.1', port: 0, dataDir: root })).toThrow(`is served by process ${process.pid}`);
    expect(readFileSync(join(root, '.svc_registry.pid'), 'utf8').trim()).toBe(String(process.pid));
    expect((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(200);
  });

  test('a data root that does not exist is an error and is not created', () => {
    const missing = join(dir, 'no-such-root');
    expect(() => startRegistryServer({ host: '127.0.0.1', port: 0, dataDir: missing })).toThrow('does not exist');
    expect(existsSync(missing)).toBe(false);
    expect(statSync(join(root, 'artifacts')).isDirectory()).toBe(true);
  });
});
