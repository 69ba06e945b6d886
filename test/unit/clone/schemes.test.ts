import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cloneBundle } from '../../../src/clone/clone.ts';
import { parseRef } from '../../../src/clone/ref.ts';
import { InputError, NotFoundError, SvcError, UnavailableError } from '../../../src/core/errors.ts';
import { hostingDoi } from '../../../src/ear/backends/hosting-doi.ts';
import { hostingRelease } from '../../../src/ear/backends/hosting-release.ts';
import { svcRegistry } from '../../../src/ear/backends/svc-registry.ts';
import { makeBundle, treeFiles } from '../../support/bundle.ts';
import { startGithubApiServer } from '../../support/github-api-server.ts';
import { startTestRegistry } from '../../support/registry-server.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { startZenodoApiServer } from '../../support/zenodo-api-server.ts';
import { failure, nothingLeft } from './helpers.ts';

let root: string;
let out: string;
let bundle: Awaited<ReturnType<typeof makeBundle>>;
let id: string;
const stops: (() => void)[] = [];

beforeEach(async () => {
  root = tempDir();
  out = join(root, 'out');
  mkdirSync(out);
  bundle = await makeBundle(join(root, 'src'), { 'code/a.py': 'print(1)\n', 'reproduce.sh': 'python code/a.py\n' });
  id = new Bun.CryptoHasher('sha256').update(await Bun.file(bundle.tarball).arrayBuffer()).digest('hex').slice(0, 16);
});
afterEach(() => {
  for (const s of stops.splice(0)) s();
  removeDir(root);
});

/** What a backend's publish gets for the test bundle, asked public, with the backend's environment and settings. */
const publishInput = (env: Record<string, string>, settings: Record<string, unknown>) => ({
  tarball: bundle.tarball,
  tarballSha256: new Bun.CryptoHasher('sha256').update(readFileSync(bundle.tarball)).digest('hex'),
  manifest: bundle.lock,
  visibility: 'public',
  dryRun: false,
  checkpointDir: join(root, 'src'),
  env,
  settings,
});

const serveFiles = (routes: Record<string, () => Response | Promise<Response>>) => {
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (req) => (routes[new URL(req.url).pathname] ?? (() => new Response('no', { status: 404 })))() });
  stops.push(() => void server.stop(true));
  return `http://127.0.0.1:${server.port}`;
};

describe('reference parsing', () => {
  test.each([
    ['file://x.tar.gz', { scheme: 'file', path: 'x.tar.gz' }],
    ['https://example.org/b.tar.gz', { scheme: 'https', url: 'https://example.org/b.tar.gz' }],
    ['svc://0123456789abcdef', { scheme: 'svc', registry: null, id: '0123456789abcdef' }],
    ['svc://lab/0123456789abcdef', { scheme: 'svc', registry: 'lab', id: '0123456789abcdef' }],
    ['hosting-release:octo/repo', { scheme: 'hosting-release', owner: 'octo', repo: 'repo' }],
    ['doi:10.5281/zenodo.12345', { scheme: 'doi', doi: '10.5281/zenodo.12345', record: '12345' }],
  ])('%s', (ref, parsed) => expect(parseRef(ref)).toEqual(parsed as never));

  test.each(['ftp://x', 'file://', 'http://example.org/b.tar.gz', 'svc://xyz', 'svc://a/b/0123456789abcdef', 'hosting-release:octo', 'hosting-release:../x', 'doi:10.1000/xyz', 'bundle.tar.gz'])('refused: %s', (ref) => {
    expect(() => parseRef(ref)).toThrow(InputError);
  });
});

describe('https://', () => {
  test('a streamed download over loopback http, verified', async () => {
    const url = serveFiles({ '/b.tar.gz': () => new Response(Bun.file(bundle.tarball)) });
    const r = await cloneBundle(`${url}/b.tar.gz`, join(out, 'b'), { env: {}, expectSha256: bundle.lock.bundle_sha256 });
    expect(r.file_count).toBe(2);
  });

  test('404 is not found and leaves nothing', async () => {
    const url = serveFiles({});
    const err = await failure(cloneBundle(`${url}/missing.tar.gz`, join(out, 'b'), { env: {} }));
    expect(err).toBeInstanceOf(NotFoundError);
    nothingLeft(join(out, 'b'));
  });

  test('a server that stalls mid-body times out (SVC_CLONE_HTTP_TIMEOUT) and leaves nothing', async () => {
    const url = serveFiles({
      '/slow.tar.gz': () =>
        new Response(
          new ReadableStream({
            async start(c) {
              c.enqueue(new Uint8Array([0x1f, 0x8b]));
              await Bun.sleep(3000);
              c.close();
            },
          }),
        ),
    });
    const err = await failure(cloneBundle(`${url}/slow.tar.gz`, join(out, 'b'), { env: { SVC_CLONE_HTTP_TIMEOUT: '0.3' } }));
    expect(err).toBeInstanceOf(UnavailableError);
    expect(err.message).toContain('timed out');
    nothingLeft(join(out, 'b'));
  });

  test('a bad SVC_CLONE_HTTP_TIMEOUT is bad input', async () => {
    expect(await failure(cloneBundle('https://example.org/b.tar.gz', join(out, 'b'), { env: { SVC_CLONE_HTTP_TIMEOUT: 'soon' } }))).toBeInstanceOf(InputError);
  });

  test('an unreachable server fails cleanly', async () => {
    const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') });
    const port = server.port;
    server.stop(true);
    const err = await failure(cloneBundle(`http://127.0.0.1:${port}/b.tar.gz`, join(out, 'b'), { env: {} }));
    expect(err).toBeInstanceOf(UnavailableError);
    nothingLeft(join(out, 'b'));
  });
});

describe('svc:// against the real registry', () => {
  const regFile = (entries: { name: string; url: string; token?: string }[]) => {
    const f = join(root, 'registries.yaml');
    writeFileSync(f, `registries:\n${entries.map((e) => `  - {name: ${e.name}, url: "${e.url}"${e.token ? `, token: "${e.token}"` : ''}}`).join('\n')}\n`);
    return f;
  };
  const registry = (name: string) => {
    const r = startTestRegistry(root, name);
    stops.push(() => void r.stop());
    return r;
  };

  test('svc://<id> falls through a registry without it to the next, with each one\'s own token', async () => {
    const one = registry('one');
    const two = registry('two');
    const alice = one.token('alice');
    const bob = two.token('bob');
    // staged at two: only bob's token reads it, so one's token must not be what two is sent
    expect(await two.publish(bundle.tarball, bob)).toBe(id);
    const f = regFile([{ name: 'one', url: one.url, token: alice }, { name: 'two', url: two.url, token: '$BOB_TOKEN' }]);
    const r = await cloneBundle(`svc://${id}`, join(out, 'b'), { env: { SVC_REGISTRIES_FILE: f, BOB_TOKEN: bob }, expectSha256: bundle.lock.bundle_sha256 });
    expect(r.file_count).toBe(2);
    expect(one.artifacts()).toEqual([]);
  });

  test('svc://<id>: the first registry in file order that has it wins; later ones are not asked', async () => {
    const first = registry('first');
    await first.publish(bundle.tarball, first.token('alice'), 'public');
    const later = registry('later');
    const laterUrl = later.url;
    await later.stop();
    // an unreachable registry is reported as is, so success means it was never asked
    const f = regFile([{ name: 'first', url: first.url }, { name: 'later', url: laterUrl }]);
    const r = await cloneBundle(`svc://${id}`, join(out, 'b'), { env: { SVC_REGISTRIES_FILE: f }, expectSha256: bundle.lock.bundle_sha256 });
    expect(r.file_count).toBe(2);
    // and in the other order the outage is what the clone reports
    const g = regFile([{ name: 'later', url: laterUrl }, { name: 'first', url: first.url }]);
    expect(await failure(cloneBundle(`svc://${id}`, join(out, 'c'), { env: { SVC_REGISTRIES_FILE: g } }))).toBeInstanceOf(UnavailableError);
    nothingLeft(join(out, 'c'), ['b']);
  });

  test('svc://<name>/<id> and --registry pick one registry by name or URL', async () => {
    const a = registry('a');
    const b = registry('b');
    // a holds the same bundle staged: without alice's token it is not there, so b is asked next
    await a.publish(bundle.tarball, a.token('alice'));
    await b.publish(bundle.tarball, b.token('bob'), 'public');
    const f = regFile([{ name: 'a', url: a.url }, { name: 'b', url: b.url }]);
    const env = { SVC_REGISTRIES_FILE: f };
    await cloneBundle(`svc://${id}`, join(out, 'v'), { env, expectSha256: bundle.lock.bundle_sha256 });
    expect((await failure(cloneBundle(`svc://a/${id}`, join(out, 'u'), { env }))).message).toContain('404');
    await cloneBundle(`svc://b/${id}`, join(out, 'x'), { env, expectSha256: bundle.lock.bundle_sha256 });
    await cloneBundle(`svc://${id}`, join(out, 'y'), { env, registry: 'b' });
    await cloneBundle(`svc://${id}`, join(out, 'z'), { env, registry: `${b.url}/` });
    expect(await failure(cloneBundle(`svc://nope/${id}`, join(out, 'w'), { env }))).toBeInstanceOf(NotFoundError);
  });

  test('--token: an environment variable name, else the literal; it wins over the file', async () => {
    const reg = registry('r');
    const good = reg.token('bob');
    await reg.publish(bundle.tarball, good, 'private-token');
    const f = regFile([{ name: 'r', url: reg.url, token: 'svc_wrong' }]);
    expect((await failure(cloneBundle(`svc://${id}`, join(out, 'n'), { env: { SVC_REGISTRIES_FILE: f } }))).message).toContain('401');
    await cloneBundle(`svc://${id}`, join(out, 'a'), { env: { SVC_REGISTRIES_FILE: f, MY_TOK: good }, token: 'MY_TOK' });
    await cloneBundle(`svc://${id}`, join(out, 'b'), { env: { SVC_REGISTRIES_FILE: f }, token: good });
    // private-token: any valid token of this registry, not only the owner's
    await cloneBundle(`svc://${id}`, join(out, 'c'), { env: { SVC_REGISTRIES_FILE: f }, token: reg.token('eve') });
  });

  test('a wrong token is 401 and a staged bundle of another user is not found (404): both leave nothing', async () => {
    const reg = registry('r');
    await reg.publish(bundle.tarball, reg.token('bob'));
    const eve = reg.token('eve');
    const f = regFile([{ name: 'r', url: reg.url }]);
    const e1 = await failure(cloneBundle(`svc://${id}`, join(out, 'b'), { env: { SVC_REGISTRIES_FILE: f }, token: 'svc_nope' }));
    expect(e1).toBeInstanceOf(SvcError);
    expect(e1.message).toContain('401');
    const e2 = await failure(cloneBundle(`svc://${id}`, join(out, 'b'), { env: { SVC_REGISTRIES_FILE: f }, token: eve }));
    expect(e2).toBeInstanceOf(NotFoundError);
    nothingLeft(join(out, 'b'));
  });

  test('unknown id: 404, naming the registries tried', async () => {
    const a = registry('a');
    const b = registry('b');
    const f = regFile([{ name: 'a', url: a.url }, { name: 'b', url: b.url }]);
    const err = await failure(cloneBundle(`svc://${id}`, join(out, 'b'), { env: { SVC_REGISTRIES_FILE: f } }));
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.message).toContain('a, b');
    nothingLeft(join(out, 'b'));
  });

  test('no registries configured is a clear error', async () => {
    const err = await failure(cloneBundle(`svc://${id}`, join(out, 'b'), { env: { HOME: root }, cwd: root }));
    expect(err.message).toContain('no registries configured');
  });

  test('round trip: the svc-registry backend publishes, promotes public, and svc://<id> clones it verified', async () => {
    const reg = registry('lab');
    const token = reg.token('alice');
    const input = publishInput({}, { url: reg.url, token, name: 'lab' });
    const published = await svcRegistry.publish(input);
    expect(published).toMatchObject({ ref: `svc://${id}`, visibility: 'staged' });
    const f = regFile([{ name: 'lab', url: reg.url }]);
    // staged: without the owner's token it is not there
    expect((await failure(cloneBundle(published.ref, join(out, 'b'), { env: { SVC_REGISTRIES_FILE: f } }))).message).toContain('404');
    expect((await svcRegistry.promote({ ref: published.ref, extra: published.extra }, 'public', {}, input.settings)).visibility).toBe('public');
    const r = await cloneBundle(published.ref, join(out, 'b'), { env: { SVC_REGISTRIES_FILE: f }, expectSha256: bundle.lock.bundle_sha256 });
    expect(r).toMatchObject({ bundle_sha256: bundle.lock.bundle_sha256, file_count: 2, extracted: true });
    expect(treeFiles(join(out, 'b'))).toEqual(treeFiles(bundle.tree));
    for (const p of treeFiles(bundle.tree)) expect(readFileSync(join(out, 'b', p), 'utf8')).toBe(readFileSync(join(bundle.tree, p), 'utf8'));
    // a wrong expected digest fails verification and leaves nothing
    const bad = await failure(cloneBundle(published.ref, join(out, 'c'), { env: { SVC_REGISTRIES_FILE: f }, expectSha256: '0'.repeat(64) }));
    expect(bad.message).toContain('bundle digest mismatch');
    nothingLeft(join(out, 'c'), ['b']);
  });
});

describe('svc:// through the registry client', () => {
  const regFile = (url: string) => {
    const f = join(root, 'registries.yaml');
    writeFileSync(f, `registries:\n  - {name: lab, url: "${url}"}\n`);
    return f;
  };

  test('the real registry: private-token and staged bundles, without and with a token, as the client reports them', async () => {
    const reg = startTestRegistry(root, 'lab');
    stops.push(() => void reg.stop());
    const owner = reg.token('bob');
    await reg.publish(bundle.tarball, owner, 'private-token');
    const env = { SVC_REGISTRIES_FILE: regFile(reg.url) };
    // private-token: the registry asks for a token (401), which the clone reports as a refusal with the hint to give one
    const refused = await failure(cloneBundle(`svc://${id}`, join(out, 'a'), { env }));
    expect(refused).toBeInstanceOf(SvcError);
    expect(refused).toMatchObject({ message: `svc://${id} at lab: authentication required or token not accepted (401)`, hint: 'pass --token or set the registry token', exitCode: 1 });
    nothingLeft(join(out, 'a'));
    // SVC_REGISTRY_TOKEN is the token when neither --token nor the file gives one
    expect((await cloneBundle(`svc://${id}`, join(out, 'a'), { env: { ...env, SVC_REGISTRY_TOKEN: reg.token('eve') } })).file_count).toBe(2);

    const other = await makeBundle(join(root, 'other'), { 'reproduce.sh': 'echo staged\n' });
    const staged = await reg.publish(other.tarball, owner);
    const unknown = await failure(cloneBundle(`svc://${staged}`, join(out, 'b'), { env, token: reg.token('eve') }));
    expect(unknown).toBeInstanceOf(NotFoundError);
    expect(unknown.message).toBe(`svc://${staged} at lab: not found (404)`);
    nothingLeft(join(out, 'b'), ['a']);
    expect((await cloneBundle(`svc://${staged}`, join(out, 'b'), { env, token: owner, expectSha256: other.lock.bundle_sha256 })).file_count).toBe(1);
  });

  /** A registry's answer to GET /artifact/<id>: the bundle's headers, then `body`. */
  const fakeRegistry = (body: () => ReadableStream<Uint8Array> | Blob, sha256: string) =>
    serveFiles({ [`/artifact/${id}`]: () => new Response(body(), { headers: { 'X-Svc-Sha256': sha256, 'X-Svc-Visibility': 'public' } }) });
  const tarballSha = () => new Bun.CryptoHasher('sha256').update(readFileSync(bundle.tarball)).digest('hex');

  test('a registry that sends the headers and part of the bundle, then nothing, fails with the stall error (SVC_CLONE_HTTP_TIMEOUT) and leaves nothing', async () => {
    const stalling = () =>
      new ReadableStream<Uint8Array>({
        async start(c) {
          c.enqueue(readFileSync(bundle.tarball).subarray(0, 64));
          await Bun.sleep(30_000);
          c.close();
        },
      });
    const env = { SVC_REGISTRIES_FILE: regFile(fakeRegistry(stalling, tarballSha())), SVC_CLONE_HTTP_TIMEOUT: '0.3' };
    const err = await failure(cloneBundle(`svc://${id}`, join(out, 'b'), { env }));
    expect(err).toBeInstanceOf(UnavailableError);
    expect(err).toMatchObject({ message: `download of svc://${id} at lab timed out: no data for 0.3 s`, hint: 'try again, or raise SVC_CLONE_HTTP_TIMEOUT' });
    nothingLeft(join(out, 'b'));
  });

  test('bytes that are not the bundle the registry announced are refused on the way, leaving nothing', async () => {
    const env = { SVC_REGISTRIES_FILE: regFile(fakeRegistry(() => Bun.file(bundle.tarball), 'b'.repeat(64))) };
    const err = await failure(cloneBundle(`svc://${id}`, join(out, 'b'), { env }));
    expect(err).toBeInstanceOf(UnavailableError);
    expect(err.message).toContain('not the announced');
    nothingLeft(join(out, 'b'));
  });
});

describe('hosting-release: (published by the hosting-release backend)', () => {
  const TOKEN = 'ghp_writer0123456789abcdef';
  const github = () => {
    const gh = startGithubApiServer({ repos: ['octo/paper', 'octo/bare', 'octo/none'], tokens: { [TOKEN]: ['octo/paper', 'octo/bare'] } });
    stops.push(gh.stop);
    return gh;
  };

  test('round trip: publish, promote public, clone the latest release\'s bundle.tar.gz (through its redirect)', async () => {
    const gh = github();
    const input = publishInput({ SVC_HOSTING_RELEASE_API: gh.url, GITHUB_TOKEN: TOKEN }, { repo: 'octo/paper' });
    const published = await hostingRelease.publish(input);
    expect(published.ref).toBe('hosting-release:octo/paper');
    const env = { SVC_HOSTING_RELEASE_API: gh.url };
    // staged is a draft: not the latest release, so not cloneable
    expect(await failure(cloneBundle(published.ref, join(out, 'b'), { env }))).toBeInstanceOf(NotFoundError);
    await hostingRelease.promote({ ref: published.ref, extra: published.extra }, 'public', input.env, input.settings);
    gh.requests.length = 0;
    const r = await cloneBundle(published.ref, join(out, 'b'), { env, expectSha256: bundle.lock.bundle_sha256 });
    expect(r.file_count).toBe(2);
    expect(treeFiles(join(out, 'b'))).toEqual(treeFiles(bundle.tree));
    const tag = published.extra.tag as string;
    expect(gh.requests.map((q) => q.path)).toEqual(['/repos/octo/paper/releases/latest', `/octo/paper/releases/download/${tag}/bundle.tar.gz`, expect.stringMatching(/^\/storage\/releases\/\d+\?sig=/)]);
    expect(gh.requests[0]?.headers.accept).toBe('application/vnd.github+json');
    // clone sends no credentials it was not given
    expect(gh.requests.every((q) => q.headers.authorization === undefined)).toBe(true);
  });

  test('no release: 404; a release without the asset: not found', async () => {
    const gh = github();
    const auth = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
    const rel = (await (await fetch(`${gh.url}/repos/octo/bare/releases`, { method: 'POST', headers: auth, body: JSON.stringify({ tag_name: 'v1' }) })).json()) as { id: number };
    expect((await fetch(`${gh.url}/repos/octo/bare/releases/${rel.id}/assets?name=other.zip`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/zip' }, body: 'zip' })).status).toBe(201);
    const env = { SVC_HOSTING_RELEASE_API: gh.url };
    expect(await failure(cloneBundle('hosting-release:octo/none', join(out, 'b'), { env }))).toBeInstanceOf(NotFoundError);
    expect(await failure(cloneBundle('hosting-release:octo/missing', join(out, 'b'), { env }))).toBeInstanceOf(NotFoundError);
    const err = await failure(cloneBundle('hosting-release:octo/bare', join(out, 'b'), { env }));
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.message).toContain('(v1) has no bundle.tar.gz');
    nothingLeft(join(out, 'b'));
  });
});

describe('answers that are not what the protocol promises', () => {
  test('a release listing larger than 16 MB is refused', async () => {
    const url = serveFiles({ '/repos/o/r/releases/latest': () => new Response(`{"assets": [${'"x",'.repeat(5_000_000)}"x"]}`) });
    const err = await failure(cloneBundle('hosting-release:o/r', join(out, 'b'), { env: { SVC_HOSTING_RELEASE_API: url } }));
    expect(err.message).toContain('larger than');
    nothingLeft(join(out, 'b'));
  });

  test('a record that is not JSON; a server error', async () => {
    const url = serveFiles({ '/api/records/1': () => new Response('<html>'), '/api/records/2': () => new Response('boom', { status: 500 }) });
    expect((await failure(cloneBundle('doi:10.5281/zenodo.1', join(out, 'b'), { env: { SVC_HOSTING_DOI_API: url } }))).message).toContain('not JSON');
    const err = await failure(cloneBundle('doi:10.5281/zenodo.2', join(out, 'b'), { env: { SVC_HOSTING_DOI_API: url } }));
    expect(err).toBeInstanceOf(UnavailableError);
    expect(err.message).toContain('HTTP 500');
  });
});

describe('doi: (published by the hosting-doi backend)', () => {
  const TOKEN = 'zenodo_writer_token_0123456789';
  const zenodo = () => {
    const z = startZenodoApiServer({ tokens: { [TOKEN]: { user: 'alice', write: true } } });
    stops.push(z.stop);
    return z;
  };

  test('round trip: publish, promote public (mints the DOI), clone doi:<doi>', async () => {
    const z = zenodo();
    const input = publishInput({ SVC_HOSTING_DOI_API: z.url, ZENODO_TOKEN: TOKEN }, { creators: ['Doe, Jane'] });
    const published = await hostingDoi.publish(input);
    const depId = published.extra.deposition_id as number;
    const env = { SVC_HOSTING_DOI_API: z.url };
    // an unpublished deposition has no record yet
    expect(await failure(cloneBundle(`doi:10.5281/zenodo.${depId}`, join(out, 'b'), { env }))).toBeInstanceOf(NotFoundError);
    const promoted = await hostingDoi.promote({ ref: published.ref, extra: published.extra }, 'public', input.env, input.settings);
    const ref = promoted.extra.ref as string;
    expect(ref).toBe(`doi:10.5281/zenodo.${depId}`);
    z.requests.length = 0;
    const r = await cloneBundle(ref, join(out, 'b'), { env, expectSha256: bundle.lock.bundle_sha256 });
    expect(r.file_count).toBe(2);
    expect(treeFiles(join(out, 'b'))).toEqual(treeFiles(bundle.tree));
    expect(z.requests.map((q) => q.path)).toEqual([`/api/records/${depId}`, `/api/records/${depId}/files/bundle.tar.gz/content`]);
    expect(z.requests.every((q) => q.headers.authorization === undefined)).toBe(true);
  });

  test('an unknown record is not found; a record without the file too', async () => {
    const z = zenodo();
    const auth = { Authorization: `Bearer ${TOKEN}` };
    const dep = (await (await fetch(`${z.url}/api/deposit/depositions`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: '{}' })).json()) as { id: number; links: { bucket: string } };
    expect((await fetch(`${dep.links.bucket}/paper.pdf`, { method: 'PUT', headers: auth, body: 'pdf' })).status).toBe(201);
    const metadata = { upload_type: 'publication', title: 'paper', creators: [{ name: 'Doe, Jane' }], description: 'a paper' };
    expect((await fetch(`${z.url}/api/deposit/depositions/${dep.id}`, { method: 'PUT', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ metadata }) })).status).toBe(200);
    expect((await fetch(`${z.url}/api/deposit/depositions/${dep.id}/actions/publish`, { method: 'POST', headers: auth })).status).toBe(202);
    const env = { SVC_HOSTING_DOI_API: z.url };
    expect(await failure(cloneBundle('doi:10.5281/zenodo.99', join(out, 'b'), { env }))).toBeInstanceOf(NotFoundError);
    expect((await failure(cloneBundle(`doi:10.5281/zenodo.${dep.id}`, join(out, 'b'), { env }))).message).toContain('no bundle.tar.gz');
    nothingLeft(join(out, 'b'));
  });
});
