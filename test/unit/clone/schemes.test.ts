import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cloneBundle } from '../../../src/clone/clone.ts';
import { parseRef } from '../../../src/clone/ref.ts';
import { InputError, NotFoundError, SvcError, UnavailableError } from '../../../src/core/errors.ts';
import { makeBundle } from '../../support/bundle.ts';
import { startGitHubReleasesServer } from '../../support/github-releases-server.ts';
import { startRegistryStub } from '../../support/registry-stub-server.ts';
import { removeDir, tempDir } from '../../support/svc.ts';
import { startZenodoServer } from '../../support/zenodo-server.ts';
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

describe('svc://', () => {
  const regFile = (entries: { name: string; url: string; token?: string }[]) => {
    const f = join(root, 'registries.yaml');
    writeFileSync(f, `registries:\n${entries.map((e) => `  - {name: ${e.name}, url: "${e.url}"${e.token ? `, token: "${e.token}"` : ''}}`).join('\n')}\n`);
    return f;
  };

  test('svc://<id> from the first registry that has it, in file order, with each one\'s token', async () => {
    const empty = startRegistryStub([], { svc_tokA: 'alice' });
    const full = startRegistryStub([{ id, file: bundle.tarball, visibility: 'staged', owner: 'bob' }], { svc_tokB: 'bob' });
    stops.push(empty.stop, full.stop);
    const f = regFile([{ name: 'one', url: empty.url, token: 'svc_tokA' }, { name: 'two', url: full.url, token: '$BOB_TOKEN' }]);
    const r = await cloneBundle(`svc://${id}`, join(out, 'b'), { env: { SVC_REGISTRIES_FILE: f, BOB_TOKEN: 'svc_tokB' }, expectSha256: bundle.lock.bundle_sha256 });
    expect(r.file_count).toBe(2);
    expect(empty.requests.map((q) => q.path)).toEqual([`/artifact/${id}`]);
    expect(full.requests.map((q) => q.auth)).toEqual(['Bearer svc_tokB']);
  });

  test('svc://<name>/<id> and --registry pick one registry by name or URL', async () => {
    const a = startRegistryStub([], {});
    const b = startRegistryStub([{ id, file: bundle.tarball, visibility: 'public', owner: 'bob' }], {});
    stops.push(a.stop, b.stop);
    const f = regFile([{ name: 'a', url: a.url }, { name: 'b', url: b.url }]);
    const env = { SVC_REGISTRIES_FILE: f };
    await cloneBundle(`svc://b/${id}`, join(out, 'x'), { env });
    await cloneBundle(`svc://${id}`, join(out, 'y'), { env, registry: 'b' });
    await cloneBundle(`svc://${id}`, join(out, 'z'), { env, registry: `${b.url}/` });
    expect(a.requests).toEqual([]);
    expect(b.requests).toHaveLength(3);
    expect(await failure(cloneBundle(`svc://nope/${id}`, join(out, 'w'), { env }))).toBeInstanceOf(NotFoundError);
  });

  test('--token: an environment variable name, else the literal; it wins over the file', async () => {
    const reg = startRegistryStub([{ id, file: bundle.tarball, visibility: 'private-token', owner: 'bob' }], { svc_good: 'bob' });
    stops.push(reg.stop);
    const f = regFile([{ name: 'r', url: reg.url, token: 'svc_wrong' }]);
    await cloneBundle(`svc://${id}`, join(out, 'a'), { env: { SVC_REGISTRIES_FILE: f, MY_TOK: 'svc_good' }, token: 'MY_TOK' });
    await cloneBundle(`svc://${id}`, join(out, 'b'), { env: { SVC_REGISTRIES_FILE: f }, token: 'svc_good' });
    expect(reg.requests.map((q) => q.auth)).toEqual(['Bearer svc_good', 'Bearer svc_good']);
  });

  test('a wrong token is 401 and a staged bundle of another user 403: both leave nothing', async () => {
    const reg = startRegistryStub([{ id, file: bundle.tarball, visibility: 'staged', owner: 'bob' }], { svc_bob: 'bob', svc_eve: 'eve' });
    stops.push(reg.stop);
    const f = regFile([{ name: 'r', url: reg.url }]);
    const e1 = await failure(cloneBundle(`svc://${id}`, join(out, 'b'), { env: { SVC_REGISTRIES_FILE: f }, token: 'svc_nope' }));
    expect(e1).toBeInstanceOf(SvcError);
    expect(e1.message).toContain('401');
    const e2 = await failure(cloneBundle(`svc://${id}`, join(out, 'b'), { env: { SVC_REGISTRIES_FILE: f }, token: 'svc_eve' }));
    expect(e2.message).toContain('403');
    nothingLeft(join(out, 'b'));
  });

  test('unknown id: 404, naming the registries tried', async () => {
    const a = startRegistryStub([], {});
    const b = startRegistryStub([], {});
    stops.push(a.stop, b.stop);
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
});

describe('hosting-release:', () => {
  test('the latest release\'s bundle.tar.gz asset (through its redirect)', async () => {
    const gh = startGitHubReleasesServer([{ owner: 'octo', repo: 'paper', tag: 'v1', assets: [{ name: 'notes.txt', file: bundle.tarball }, { name: 'bundle.tar.gz', file: bundle.tarball }] }]);
    stops.push(gh.stop);
    const r = await cloneBundle('hosting-release:octo/paper', join(out, 'b'), { env: { SVC_HOSTING_RELEASE_API: gh.url }, expectSha256: bundle.lock.bundle_sha256 });
    expect(r.file_count).toBe(2);
    expect(gh.requests.map((q) => q.path)).toEqual(['/repos/octo/paper/releases/latest', '/octo/paper/releases/download/v1/bundle.tar.gz', expect.stringMatching(/^\/storage\//)]);
    expect(gh.requests[0]?.headers.accept).toBe('application/vnd.github+json');
  });

  test('no release: 404; a release without the asset: not found', async () => {
    const gh = startGitHubReleasesServer([{ owner: 'octo', repo: 'bare', tag: 'v1', assets: [{ name: 'other.zip', file: bundle.tarball }] }]);
    stops.push(gh.stop);
    const env = { SVC_HOSTING_RELEASE_API: gh.url };
    expect(await failure(cloneBundle('hosting-release:octo/none', join(out, 'b'), { env }))).toBeInstanceOf(NotFoundError);
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

describe('doi:', () => {
  test('a Zenodo record\'s bundle.tar.gz', async () => {
    const z = startZenodoServer([{ id: 4242, files: [{ key: 'README.md', file: bundle.tarball }, { key: 'bundle.tar.gz', file: bundle.tarball }] }]);
    stops.push(z.stop);
    const r = await cloneBundle('doi:10.5281/zenodo.4242', join(out, 'b'), { env: { SVC_HOSTING_DOI_API: z.url }, expectSha256: bundle.lock.bundle_sha256 });
    expect(r.file_count).toBe(2);
    expect(z.requests.map((q) => q.path)).toEqual(['/api/records/4242', '/api/records/4242/files/bundle.tar.gz/content']);
  });

  test('an unknown record is not found; a record without the file too', async () => {
    const z = startZenodoServer([{ id: 7, files: [{ key: 'paper.pdf', file: bundle.tarball }] }]);
    stops.push(z.stop);
    const env = { SVC_HOSTING_DOI_API: z.url };
    expect(await failure(cloneBundle('doi:10.5281/zenodo.99', join(out, 'b'), { env }))).toBeInstanceOf(NotFoundError);
    expect((await failure(cloneBundle('doi:10.5281/zenodo.7', join(out, 'b'), { env }))).message).toContain('no bundle.tar.gz');
    nothingLeft(join(out, 'b'));
  });
});
