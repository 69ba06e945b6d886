import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RegistryClient, RegistryError } from '../../src/registry/client.ts';
import { type RegistryChild, spawnRegistry } from '../support/registry-server.ts';
import { removeDir, svc, tempDir } from '../support/svc.ts';
import { makeBundle } from '../unit/registry/bundles.ts';

let dir: string;
let data: string;
let child: RegistryChild | null = null;
beforeEach(() => {
  dir = tempDir('svc-registry-e2e-');
  data = join(dir, 'data');
  mkdirSync(data);
});
afterEach(async () => {
  await child?.stop();
  child = null;
  removeDir(dir);
});

const run = (args: string[], env: Record<string, string> = {}) => svc(['registry', ...args], { cwd: dir, env });

describe('svc registry', () => {
  test('serve without a data root, or with one that does not exist, is a one-line error', async () => {
    const none = await run(['serve', '--port', '0']);
    expect(none.code).toBe(2);
    expect(none.stderr.trim().split('\n')).toHaveLength(1);
    expect(none.stderr).toContain('SVC_REGISTRY_DATA');
    const missing = join(dir, 'nowhere');
    for (const r of [await run(['serve', '--port', '0', '--data-dir', missing]), await run(['serve', '--port', '0'], { SVC_REGISTRY_DATA: missing }), await run(['token', 'list'], { SVC_REGISTRY_DATA: missing })]) {
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain('does not exist');
    }
    expect(existsSync(missing)).toBe(false);
  });

  test('token issue prints the token once; list never shows it; revoke by id', async () => {
    const issued = await run(['token', 'issue', 'alice'], { SVC_REGISTRY_DATA: data });
    expect(issued.code).toBe(0);
    const token = issued.stdout.trim();
    expect(token).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
    const list = await run(['token', 'list', '--data-dir', data]);
    expect(list.stdout).not.toContain(token);
    const [id] = list.stdout.trim().split(/\s+/);
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(list.stdout).toContain('alice');
    expect(list.stdout).toContain('active');
    expect(readFileSync(join(data, 'tokens.db')).includes(Buffer.from(token))).toBe(false);
    const revoked = await run(['token', 'revoke', id as string, '--data-dir', data]);
    expect(revoked.code).toBe(0);
    expect((await run(['token', 'list', '--data-dir', data])).stdout).toContain('revoked');
    expect((await run(['token', 'revoke', 'ffffffffffffffff', '--data-dir', data])).code).toBe(2);
    expect((await run(['token', 'issue', 'a b', '--data-dir', data])).code).toBe(2);
  });

  test('serve: upload, promote, download through the client; a revoked token then gets 401', async () => {
    const token = (await run(['token', 'issue', 'alice', '--data-dir', data])).stdout.trim();
    child = await spawnRegistry(data);
    expect(await (await fetch(`${child.url}/healthz`)).json()).toEqual({ ok: true });
    const file = await makeBundle(dir, 'e2e');
    const owner = new RegistryClient({ url: child.url, token });
    const up = await owner.upload(file, 'public');
    expect(up.visibility).toBe('staged');
    expect(readdirSync(join(data, 'artifacts'))).toEqual([up.id]);
    const anon = new RegistryClient({ url: child.url });
    // staged: to anyone but its owner it is not there
    expect((await fetch(`${child.url}/artifact/${up.id}`, { method: 'HEAD' })).status).toBe(404);
    expect(await owner.promote(up.id, 'public')).toEqual({ id: up.id, visibility: 'public' });
    const out = join(dir, 'down.tar.gz');
    expect((await anon.download(up.id, out)).sha256).toBe(up.sha256);
    expect(readFileSync(out).equals(readFileSync(file))).toBe(true);
    const [tokenId] = (await run(['token', 'list', '--data-dir', data])).stdout.trim().split(/\s+/);
    await run(['token', 'revoke', tokenId as string, '--data-dir', data]);
    const err = await owner.promote(up.id, 'public').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegistryError);
    expect((err as RegistryError).status).toBe(401);
  });

  test("a second server on the same data root exits 1 naming the first; the first's upload in flight completes", async () => {
    const token = (await run(['token', 'issue', 'alice', '--data-dir', data])).stdout.trim();
    child = await spawnRegistry(data);
    const file = await makeBundle(dir, 'slow');
    const bytes = readFileSync(file);
    // the upload is streamed slowly, so it is still in tmp/ while the second server starts
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent >= bytes.length) return controller.close();
        const n = Math.min(512, bytes.length - sent);
        controller.enqueue(bytes.subarray(sent, sent + n));
        sent += n;
        await Bun.sleep(sent < 2048 ? 150 : 0);
      },
    });
    const upload = fetch(`${child.url}/artifact`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body, duplex: 'half' } as RequestInit);
    for (let i = 0; i < 100 && readdirSync(join(data, 'tmp')).length === 0; i++) await Bun.sleep(20);
    expect(readdirSync(join(data, 'tmp')).length).toBe(1);
    const second = await run(['serve', '--port', '0', '--data-dir', data]);
    expect(second.code).toBe(1);
    expect(second.stderr.trim().split('\n')).toHaveLength(1);
    expect(second.stderr).toContain(`served by process ${child.proc.pid}`);
    const res = await upload;
    expect(res.status).toBe(201);
    expect(readdirSync(join(data, 'artifacts'))).toHaveLength(1);
    // token commands share the root safely with a running server (SQLite, WAL)
    expect((await run(['token', 'issue', 'bob', '--data-dir', data])).code).toBe(0);
  });

  test('after the server is killed (SIGKILL), a new one takes the data root; after a clean stop, nothing is left', async () => {
    child = await spawnRegistry(data);
    child.proc.kill('SIGKILL');
    await child.proc.exited;
    expect(existsSync(join(data, '.svc_registry.pid'))).toBe(true);
    child = await spawnRegistry(data);
    expect(await (await fetch(`${child.url}/healthz`)).json()).toEqual({ ok: true });
    await child.stop();
    child = null;
    expect(existsSync(join(data, '.svc_registry.pid'))).toBe(false);
  });

  test('a port that cannot be had leaves the data root free', async () => {
    const taken = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') });
    try {
      const r = await run(['serve', '--port', String(taken.port), '--data-dir', data]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('in use');
    } finally {
      taken.stop(true);
    }
    expect(existsSync(join(data, '.svc_registry.pid'))).toBe(false);
    child = await spawnRegistry(data);
  });
});
