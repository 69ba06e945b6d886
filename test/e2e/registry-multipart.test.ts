// The registry as the ARI clients use it: a multipart form (bundle, manifest, metadata,
// visibility) posted by curl -F, promote with ?target=, delete; then svc clone svc://<id>.
// curl is the client, so nothing here shares svc's own client code.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { type RegistryChild, spawnRegistry } from '../support/registry-server.ts';
import { removeDir, svc, tempDir } from '../support/svc.ts';
import { makeBundle } from '../support/bundle.ts';

const FILES = { 'code/train.py': 'print("train")\n', 'results/metrics.json': '{"accuracy": 0.91}\n' };

let dir: string;
let data: string;
let registry: RegistryChild;
let alice: string;
let bob: string;
let tarball: string;
let manifestFile: string;
let lock: { bundle_sha256: string };

beforeAll(async () => {
  dir = tempDir('svc-multipart-');
  data = join(dir, 'data');
  mkdirSync(data);
  const issue = async (user: string) => (await svc(['registry', 'token', 'issue', user, '--data-dir', data], { cwd: dir })).stdout.trim();
  alice = await issue('alice');
  bob = await issue('bob');
  registry = await spawnRegistry(data, { SVC_REGISTRY_MAX_UPLOAD_MB: '1' });
  const made = await makeBundle(join(dir, 'src'), FILES);
  tarball = made.tarball;
  lock = made.lock;
  manifestFile = join(made.tree, 'manifest.lock');
});

afterAll(async () => {
  await registry.stop();
  removeDir(dir);
});

/** curl with the given arguments against the registry; the answer's status and JSON body. */
async function curl(args: string[]): Promise<{ status: number; body: Record<string, unknown> }> {
  const p = Bun.spawn(['curl', '-sS', '-o', '-', '-w', '\n%{http_code}', ...args], { stdout: 'pipe', stderr: 'pipe' });
  const out = await new Response(p.stdout).text();
  await p.exited;
  const cut = out.lastIndexOf('\n');
  const text = out.slice(0, cut);
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text);
  } catch {
    body = { raw: text };
  }
  return { status: Number(out.slice(cut + 1)), body };
}

const form = (token: string, fields: string[]) => curl(['-X', 'POST', `${registry.url}/artifact`, '-H', `Authorization: Bearer ${token}`, ...fields.flatMap((f) => ['-F', f])]);
const leftInTmp = () => readdirSync(join(data, 'tmp'));
const stored = () => (existsSync(join(data, 'artifacts')) ? readdirSync(join(data, 'artifacts')) : []);

describe('the ARI upload form', () => {
  let id = '';

  test('upload as curl -F sends it: 201, staged, the tarball manifest.lock stored', async () => {
    const r = await form(alice, [`bundle=@${tarball};type=application/gzip`, `manifest=<${manifestFile}`, 'metadata={"checkpoint_id":"test"}', 'visibility=staged']);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ visibility: 'staged', duplicate: false });
    id = r.body.id as string;
    expect(readFileSync(join(data, 'artifacts', id, 'bundle.tar.gz')).equals(readFileSync(tarball))).toBe(true);
    expect(readFileSync(join(data, 'artifacts', id, 'manifest.lock'), 'utf8')).toBe(readFileSync(manifestFile, 'utf8'));
    expect(leftInTmp()).toEqual([]);
  });

  test('fields in any order, metadata and visibility left out: the same bundle again is a duplicate', async () => {
    const r = await form(alice, [`manifest=<${manifestFile}`, `bundle=@${tarball}`]);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id, duplicate: true });
  });

  test('staged: another user and an anonymous client see nothing', async () => {
    expect((await curl([`${registry.url}/artifact/${id}`, '-H', `Authorization: Bearer ${bob}`])).status).toBe(404);
    expect((await curl([`${registry.url}/artifact/${id}`])).status).toBe(404);
    expect((await curl([`${registry.url}/artifact/${id}/manifest.lock`])).status).toBe(404);
  });

  test('promote with ?target= (owner only), then anyone reads it and svc clone svc://<id> verifies it', async () => {
    expect((await curl(['-X', 'POST', `${registry.url}/artifact/${id}/promote?target=public`, '-H', `Authorization: Bearer ${bob}`])).status).toBe(404);
    const p = await curl(['-X', 'POST', `${registry.url}/artifact/${id}/promote?target=public`, '-H', `Authorization: Bearer ${alice}`]);
    expect(p).toEqual({ status: 200, body: { id, visibility: 'public' } });
    expect((await curl([`${registry.url}/artifact/${id}/manifest.lock`])).status).toBe(200);
    const work = join(dir, 'work');
    mkdirSync(join(work, '.svc'), { recursive: true });
    writeFileSync(join(work, '.svc', 'registries.yaml'), `registries:\n  - name: lab\n    url: ${registry.url}\n`);
    const c = await svc(['clone', `svc://${id}`, 'copy', '--json'], { cwd: work });
    expect(c.code, c.stderr).toBe(0);
    expect(JSON.parse(c.stdout)).toMatchObject({ bundle_sha256: lock.bundle_sha256, file_count: 2 });
    expect(readFileSync(join(work, 'copy', 'code', 'train.py'), 'utf8')).toBe(FILES['code/train.py']);
  });

  test('the promote target from a JSON body too; neither, both differing, or a demotion are refused', async () => {
    const json = ['-H', 'content-type: application/json', '-H', `Authorization: Bearer ${alice}`];
    expect((await curl(['-X', 'POST', `${registry.url}/artifact/${id}/promote`, ...json, '-d', '{"target": "public"}'])).body).toEqual({ id, visibility: 'public' });
    const none = await curl(['-X', 'POST', `${registry.url}/artifact/${id}/promote`, '-H', `Authorization: Bearer ${alice}`]);
    expect([none.status, none.body.error]).toEqual([400, expect.stringContaining('no promote target')]);
    const both = await curl(['-X', 'POST', `${registry.url}/artifact/${id}/promote?target=public`, ...json, '-d', '{"target": "unlisted"}']);
    expect([both.status, both.body.error]).toEqual([400, expect.stringContaining('two targets')]);
    const down = await curl(['-X', 'POST', `${registry.url}/artifact/${id}/promote?target=unlisted`, '-H', `Authorization: Bearer ${alice}`]);
    expect(down.status).toBe(409);
  });

  test('delete by its owner', async () => {
    expect((await curl(['-X', 'DELETE', `${registry.url}/artifact/${id}`, '-H', `Authorization: Bearer ${bob}`])).status).toBe(403);
    expect(await curl(['-X', 'DELETE', `${registry.url}/artifact/${id}`, '-H', `Authorization: Bearer ${alice}`])).toEqual({ status: 200, body: { deleted: id } });
    expect(stored()).not.toContain(id);
  });
});

describe('bad forms: the clear error, nothing stored, nothing left in tmp/', () => {
  test.each([
    ['no bundle part', () => ['manifest={}'], 400, "no 'bundle' file part"],
    ['two bundle parts', () => [`bundle=@${tarball}`, `bundle=@${tarball}`], 400, 'more than one file'],
    ['an unknown visibility', () => [`bundle=@${tarball}`, 'visibility=everyone'], 400, "unknown visibility 'everyone'"],
    ['a manifest that is not JSON', () => [`bundle=@${tarball}`, 'manifest={"version": '], 400, 'the manifest field is not JSON'],
    ['metadata that is not a JSON object', () => [`bundle=@${tarball}`, 'metadata=[1, 2]'], 400, 'the metadata field must be a JSON object'],
    ['a manifest naming another bundle', () => [`bundle=@${tarball}`, `manifest={"bundle_sha256": "${'0'.repeat(64)}"}`], 400, 'is not the bundle'],
    ['a bundle that is no tarball', () => [`bundle=@${manifestFile}`], 400, 'refused'],
  ])('%s', async (_what, fields, status, message) => {
    const before = stored();
    const r = await form(alice, fields());
    expect([r.status, r.body.error]).toEqual([status, expect.stringContaining(message)]);
    expect(stored()).toEqual(before);
    expect(leftInTmp()).toEqual([]);
  });

  test('a bundle over the upload limit: 413', async () => {
    const big = join(dir, 'big.bin');
    writeFileSync(big, Buffer.alloc(2 * 1024 * 1024, 7));
    const before = stored();
    const r = await form(alice, [`bundle=@${big}`]);
    expect(r.status).toBe(413);
    expect(stored()).toEqual(before);
    expect(leftInTmp()).toEqual([]);
  });

  test('a field over its bound (a manifest over 16 MiB): 413; more than 16 parts: 400', async () => {
    const huge = join(dir, 'huge-manifest.json');
    writeFileSync(huge, `{"pad": "${'x'.repeat(16 * 1024 * 1024)}"}`);
    const before = stored();
    const big = await form(alice, [`bundle=@${tarball}`, `manifest=<${huge}`]);
    expect([big.status, big.body.error]).toEqual([413, expect.stringContaining('the form field manifest is over')]);
    const many = await form(alice, [`bundle=@${tarball}`, ...Array.from({ length: 17 }, (_, i) => `extra${i}=x`)]);
    expect([many.status, many.body.error]).toEqual([400, expect.stringContaining('more than 16 parts')]);
    expect(stored()).toEqual(before);
    expect(leftInTmp()).toEqual([]);
  });

  test('no token: 401, nothing read', async () => {
    const r = await curl(['-X', 'POST', `${registry.url}/artifact`, '-F', `bundle=@${tarball}`]);
    expect(r.status).toBe(401);
  });

  test('a form cut off in the middle of its bundle leaves nothing behind', async () => {
    const boundary = 'cutcutcut';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="bundle"; filename="b.tar.gz"\r\nContent-Type: application/gzip\r\n\r\n`;
    const part = readFileSync(tarball).subarray(0, 200);
    const url = new URL(registry.url);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(
          `POST /artifact HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${alice}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 100000\r\n\r\n${head}`,
        );
        socket.write(part);
        setTimeout(() => socket.destroy(), 200);
      });
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
    });
    // the server notices the client gone, then removes what it staged
    for (let i = 0; i < 50 && leftInTmp().length > 0; i++) await Bun.sleep(100);
    expect(leftInTmp()).toEqual([]);
    expect((await curl([`${registry.url}/healthz`])).status).toBe(200);
  });
});
