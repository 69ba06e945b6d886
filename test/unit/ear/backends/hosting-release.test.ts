import { afterAll, afterEach, expect, test } from 'bun:test';
import { hostingRelease, releaseTarget } from '../../../../src/ear/backends/hosting-release.ts';
import { startGithubApiServer } from '../../../support/github-api-server.ts';
import { bundleFixture } from './fixture.ts';

const TOKEN = 'ghp_writer0123456789abcdef';
const READER = 'ghp_reader0123456789abcdef';
const gh = startGithubApiServer({ repos: ['lab/paper', 'lab/other'], tokens: { [TOKEN]: ['lab/paper'], [READER]: [] } });
afterAll(() => gh.stop());
let fx = bundleFixture();
afterEach(() => {
  fx.cleanup();
  fx = bundleFixture();
  gh.requests.length = 0;
  gh.releases.length = 0;
});

const env = (token = TOKEN) => ({ SVC_HOSTING_RELEASE_API: gh.url, GITHUB_TOKEN: token });
const settings = { repo: 'lab/paper' };

test('publish: a draft prerelease with bundle.tar.gz and manifest.lock', async () => {
  const i = fx.input({ env: env(), settings, visibility: 'public' });
  const id16 = i.manifest.bundle_sha256.slice(0, 16);
  const out = await hostingRelease.publish(i);
  expect(out.ref).toBe('hosting-release:lab/paper');
  expect(out.visibility).toBe('staged');
  expect(out.extra).toMatchObject({ repo: 'lab/paper', tag: `svc-bundle-${id16}`, requested_visibility: 'public', dry_run: false, size: 12 });
  const rel = gh.releases[0]!;
  expect(rel).toMatchObject({ draft: true, prerelease: true, tag_name: `svc-bundle-${id16}` });
  expect(rel.assets.map((a) => a.name)).toEqual(['bundle.tar.gz', 'manifest.lock']);
  expect(new TextDecoder().decode(rel.assets[0]!.bytes)).toBe('bundle bytes');
  expect(JSON.parse(new TextDecoder().decode(rel.assets[1]!.bytes)).bundle_sha256).toBe(i.manifest.bundle_sha256);
  const upload = gh.requests.find((r) => r.path.includes('/assets?name=bundle.tar.gz'))!;
  expect(upload.headers['content-type']).toBe('application/gzip');
  expect(upload.headers.authorization).toBe(`Bearer ${TOKEN}`);
  // staged: not the latest, not downloadable by anyone
  expect((await fetch(`${gh.url}/repos/lab/paper/releases/latest`)).status).toBe(404);
  expect((await fetch(out.extra.asset_url as string)).status).toBe(404);
});

test('promote public: published, the latest, the asset downloadable', async () => {
  const out = await hostingRelease.publish(fx.input({ env: env(), settings }));
  const p = await hostingRelease.promote({ ref: out.ref, extra: out.extra }, 'public', env());
  expect(p.visibility).toBe('public');
  const patch = gh.requests.find((r) => r.method === 'PATCH')!;
  expect(patch.path).toBe(`/repos/lab/paper/releases/${out.extra.release_id}`);
  expect(gh.releases[0]).toMatchObject({ draft: false, prerelease: false });
  const latest = (await (await fetch(`${gh.url}/repos/lab/paper/releases/latest`)).json()) as { tag_name: string; assets: { browser_download_url: string; name: string }[] };
  expect(latest.tag_name).toBe(out.extra.tag as string);
  expect(await (await fetch(p.extra.asset_url as string)).text()).toBe('bundle bytes');
});

test('promote unlisted: a published prerelease, never the latest', async () => {
  const out = await hostingRelease.publish(fx.input({ env: env(), settings }));
  const p = await hostingRelease.promote({ ref: out.ref, extra: out.extra }, 'unlisted', env());
  expect(p.visibility).toBe('unlisted');
  expect(gh.releases[0]).toMatchObject({ draft: false, prerelease: true });
  expect((await fetch(`${gh.url}/repos/lab/paper/releases/latest`)).status).toBe(404);
  expect(await (await fetch(p.extra.asset_url as string)).text()).toBe('bundle bytes');
});

test('dry run sends nothing and needs no token', async () => {
  const out = await hostingRelease.publish(fx.input({ env: { SVC_HOSTING_RELEASE_API: gh.url }, settings, dryRun: true }));
  expect(out).toMatchObject({ ref: 'hosting-release:lab/paper', visibility: 'staged', extra: { dry_run: true } });
  expect(gh.requests).toEqual([]);
});

test('bad token 401 and no write access 403 are auth; the token never shown', async () => {
  const bad = 'ghp_bad_token_secret_xyz';
  const e401 = await hostingRelease.publish(fx.input({ env: env(bad), settings })).catch((e) => e);
  expect(e401.kind).toBe('auth');
  expect(e401.message).toContain('401');
  expect(e401.message).not.toContain(bad);
  const e403 = await hostingRelease.publish(fx.input({ env: env(READER), settings })).catch((e) => e);
  expect(e403.kind).toBe('auth');
  expect(e403.message).toContain('403');
  const none = await hostingRelease.publish(fx.input({ env: { SVC_HOSTING_RELEASE_API: gh.url }, settings })).catch((e) => e);
  expect(none.kind).toBe('auth');
  expect(gh.releases).toEqual([]);
});

test('an unknown repository: not_found', async () => {
  const err = await hostingRelease.publish(fx.input({ env: env(), settings: { repo: 'lab/nope' } })).catch((e) => e);
  expect(err.kind).toBe('not_found');
});

test('the same bundle again is a duplicate, reporting where the release stands', async () => {
  await hostingRelease.publish(fx.input({ env: env(), settings }));
  const again = await hostingRelease.publish(fx.input({ env: env(), settings }));
  expect(again).toMatchObject({ visibility: 'staged', extra: { duplicate: true, release_id: gh.releases[0]!.id } });
  expect(gh.releases.length).toBe(1);
  await hostingRelease.promote({ ref: again.ref, extra: again.extra }, 'public', env());
  expect((await hostingRelease.publish(fx.input({ env: env(), settings }))).visibility).toBe('public');
});

test('another bundle under the same tag: conflict', async () => {
  await hostingRelease.publish(fx.input({ env: env(), settings }));
  const { writeFileSync } = await import('node:fs');
  writeFileSync(fx.input().tarball, 'other bundle bytes of another size');
  const err = await hostingRelease.publish(fx.input({ env: env(), settings })).catch((e) => e);
  expect(err.kind).toBe('conflict');
  expect(gh.releases.length).toBe(1);
  // same size, other bytes: the asset digest tells them apart
  writeFileSync(fx.input().tarball, 'bundle bytez');
  const tarballSha256 = new Bun.CryptoHasher('sha256').update('bundle bytez').digest('hex');
  expect((await hostingRelease.publish(fx.input({ env: env(), settings, tarballSha256 })).catch((e) => e)).kind).toBe('conflict');
});

test('a failed asset upload leaves no draft behind', async () => {
  gh.failNext('/assets', 502);
  const err = await hostingRelease.publish(fx.input({ env: env(), settings })).catch((e) => e);
  expect(err.kind).toBe('network');
  expect(gh.releases).toEqual([]);
  expect(gh.requests.at(-1)?.method).toBe('DELETE');
});

test('an unreachable API: network', async () => {
  const err = await hostingRelease.publish(fx.input({ env: { SVC_HOSTING_RELEASE_API: 'http://127.0.0.1:9', GITHUB_TOKEN: TOKEN }, settings })).catch((e) => e);
  expect(err.kind).toBe('network');
});

test('promote: no release id invalid, unknown release not_found, wrong token auth', async () => {
  expect((await hostingRelease.promote({ ref: 'hosting-release:lab/paper', extra: { repo: 'lab/paper' } }, 'public', env()).catch((e) => e)).kind).toBe('invalid');
  expect((await hostingRelease.promote({ ref: 'hosting-release:lab/paper', extra: { repo: 'lab/paper', release_id: 4242 } }, 'public', env()).catch((e) => e)).kind).toBe('not_found');
  const out = await hostingRelease.publish(fx.input({ env: env(), settings }));
  expect((await hostingRelease.promote({ ref: out.ref, extra: out.extra }, 'public', env(READER)).catch((e) => e)).kind).toBe('auth');
});

test('settings: repository and API checked; token from settings, GITHUB_TOKEN, GH_TOKEN', () => {
  expect(() => releaseTarget({}, {})).toThrow('no repository');
  expect(() => releaseTarget({ repo: 'a/b/c' }, {})).toThrow('not owner/name');
  expect(() => releaseTarget({ repo: 'a/..' }, {})).toThrow('not owner/name');
  expect(() => releaseTarget({ repo: 'a/b', api_url: 'file:///x' }, {})).toThrow('not an http(s) URL');
  expect(releaseTarget({ repo: 'a/b' }, { GH_TOKEN: 't1' })).toEqual({ api: 'https://api.github.com', owner: 'a', repo: 'b', token: 't1' });
  expect(releaseTarget({ repo: 'a/b', token: 's' }, { GITHUB_TOKEN: 'g' }).token).toBe('s');
  expect(releaseTarget({}, { SVC_HOSTING_RELEASE_REPO: 'x/y', GITHUB_TOKEN: 'g' }).token).toBe('g');
});
