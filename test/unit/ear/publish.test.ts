import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { curateBundle, type CurateResult } from '../../../src/ear/curate.ts';
import { BUNDLE_TARBALL, promoteBundle, publishBundle, type PublishRecord } from '../../../src/ear/publish.ts';
import { startRegistryServer, type RegistryServer } from '../../../src/registry/server.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

// Publish and promote over real backends: the local tarball and the real registry server.

let root: string;
let ckpt: string;
let cwdBefore: string[];
beforeEach(async () => {
  root = tempDir();
  ckpt = join(root, 'workspace', 'checkpoints', 'run_1');
  put('code/main.py', 'print(1)\n');
  put('reproduce.sh', 'python3 code/main.py\n');
  put('publish.yaml', 'include: ["code/**", "reproduce.sh"]\nbackend: local-tarball\n');
  const curated = (await curateBundle(ckpt)) as CurateResult;
  expect(curated.skipped).toBe(false);
  cwdBefore = readdirSync(process.cwd());
});
afterEach(() => {
  // nothing is ever written to the working directory
  expect(readdirSync(process.cwd())).toEqual(cwdBefore);
  removeDir(root);
});

function put(rel: string, content: string): void {
  const p = join(ckpt, 'ear', rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, content);
}
const record = (): PublishRecord => JSON.parse(readFileSync(join(ckpt, 'publish_record.json'), 'utf8'));
const env = (more: Record<string, string> = {}) => ({ HOME: root, SVC_ROOT: root, SVC_CHECKPOINT_DIR: ckpt, ...more });

describe('local-tarball', () => {
  test('the first publish is staged whatever is asked; promotion moves it up and never down', async () => {
    const r = await publishBundle(ckpt, { visibility: 'public', env: env() });
    expect(r).toMatchObject({ backend: 'local-tarball', visibility: 'staged', dry_run: false, promoted_at: null, promote_failed_at: null });
    expect(r.extra.requested_visibility).toBe('public');
    expect(r.ref.startsWith(`file://${ckpt}/`)).toBe(true);
    expect(existsSync(r.ref.slice('file://'.length))).toBe(true);
    expect(record()).toEqual(r);
    const manifest = JSON.parse(readFileSync(join(ckpt, 'ear_published', 'manifest.lock'), 'utf8'));
    expect(r.bundle_sha256).toBe(manifest.bundle_sha256);

    const up = await promoteBundle(ckpt, 'unlisted', env());
    expect(up.visibility).toBe('unlisted');
    expect(up.promoted_at).not.toBeNull();
    const pub = await promoteBundle(ckpt, 'public', env());
    expect(pub.visibility).toBe('public');
    const down = await promoteBundle(ckpt, 'unlisted', env()).catch((e) => e);
    expect(down.kind).toBe('conflict');
    expect(down.message).toContain('demotion is refused');
    expect(record().visibility).toBe('public');
  });

  test('the same curated tree publishes the same tarball bytes', async () => {
    const a = await publishBundle(ckpt, { env: env() });
    const b = await publishBundle(ckpt, { env: env() });
    expect(b.extra.tarball_sha256).toBe(a.extra.tarball_sha256);
    expect(existsSync(join(ckpt, BUNDLE_TARBALL))).toBe(true);
  });

  test('SVC_PUBLISH_DRYRUN forces a dry run: nothing published, and nothing to promote', async () => {
    const r = await publishBundle(ckpt, { env: env({ SVC_PUBLISH_DRYRUN: 'true' }) });
    expect(r.dry_run).toBe(true);
    expect(existsSync(join(ckpt, 'ear_bundle'))).toBe(false);
    expect(existsSync(join(ckpt, BUNDLE_TARBALL))).toBe(false);
    const err = await promoteBundle(ckpt, 'public', env()).catch((e) => e);
    expect(err.kind).toBe('invalid');
  });

  test('bad requests: no curated bundle, no record, an unknown backend or target', async () => {
    const bare = join(root, 'workspace', 'checkpoints', 'run_2');
    mkdirSync(bare, { recursive: true });
    expect((await publishBundle(bare, { env: env() }).catch((e) => e)).message).toContain('has no curated bundle');
    expect((await promoteBundle(bare, 'public', env()).catch((e) => e)).kind).toBe('not_found');
    expect((await publishBundle(ckpt, { backend: 'ftp', env: env() }).catch((e) => e)).kind).toBe('invalid');
    await publishBundle(ckpt, { env: env() });
    expect((await promoteBundle(ckpt, 'staged' as 'public', env()).catch((e) => e)).kind).toBe('invalid');
  });
});

describe('svc-registry, the real server', () => {
  let reg: RegistryServer;
  let token: string;
  beforeEach(() => {
    const data = join(root, 'registry');
    mkdirSync(data);
    reg = startRegistryServer({ host: '127.0.0.1', port: 0, dataDir: data });
    token = reg.tokens.issue('alice').token;
    const file = join(root, 'registries.yaml');
    writeFileSync(file, `registries:\n  - name: lab\n    url: ${reg.url}\n    token: $LAB_TOKEN\n`);
  });
  afterEach(async () => {
    await reg.stop();
  });

  test('published staged through the registries file, promoted public, then anyone may fetch it', async () => {
    const e = env({ SVC_REGISTRIES_FILE: join(root, 'registries.yaml'), LAB_TOKEN: token });
    const r = await publishBundle(ckpt, { backend: 'svc-registry', env: e });
    const id = String(r.extra.tarball_sha256).slice(0, 16);
    expect(r).toMatchObject({ ref: `svc://${id}`, visibility: 'staged' });
    expect(JSON.stringify(record())).not.toContain(token);
    // staged: to anyone without the owner's token it is not there
    expect((await fetch(`${reg.url}/artifact/${id}`)).status).toBe(404);
    await promoteBundle(ckpt, 'public', e);
    const got = await fetch(`${reg.url}/artifact/${id}`);
    expect(got.status).toBe(200);
    expect(got.headers.get('x-svc-visibility')).toBe('public');
  });

  test('a promotion that fails is recorded with its time and reason', async () => {
    const e = env({ SVC_REGISTRIES_FILE: join(root, 'registries.yaml'), LAB_TOKEN: token });
    await publishBundle(ckpt, { backend: 'svc-registry', env: e });
    await reg.stop();
    const err = await promoteBundle(ckpt, 'public', e).catch((x) => x);
    expect(err.kind).toBe('network');
    const after = record();
    expect(after.visibility).toBe('staged');
    expect(after.promote_failed_at).not.toBeNull();
    expect(String(after.extra.promote_error)).toContain(reg.url.replace('http://', ''));
    reg = startRegistryServer({ host: '127.0.0.1', port: 0, dataDir: join(root, 'registry') });
  });
});
