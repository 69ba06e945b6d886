import { afterAll, afterEach, expect, test } from 'bun:test';
import { doiTarget, hostingDoi } from '../../../../src/ear/backends/hosting-doi.ts';
import { startZenodoApiServer } from '../../../support/zenodo-api-server.ts';
import { bundleFixture } from './fixture.ts';

const TOKEN = 'zenodo_writer_token_0123456789';
const READONLY = 'zenodo_reader_token_0123456789';
const OTHER = 'zenodo_other_token_0123456789';
const zen = startZenodoApiServer({ tokens: { [TOKEN]: { user: 'alice', write: true }, [READONLY]: { user: 'alice', write: false }, [OTHER]: { user: 'bob', write: true } } });
afterAll(() => zen.stop());
let fx = bundleFixture();
afterEach(() => {
  fx.cleanup();
  fx = bundleFixture();
  zen.requests.length = 0;
  zen.depositions.length = 0;
});

const env = (token = TOKEN) => ({ SVC_HOSTING_DOI_API: zen.url, ZENODO_TOKEN: token });
const settings = { creators: ['Doe, Jane', { name: 'Roe, Rick', affiliation: 'Lab' }] };

test('publish: an unpublished deposition with both files and metadata, ref doi:zenodo/draft/<id>', async () => {
  const i = fx.input({ env: env(), settings, visibility: 'public' });
  const out = await hostingDoi.publish(i);
  const d = zen.depositions[0]!;
  expect(out.ref).toBe(`doi:zenodo/draft/${d.id}`);
  expect(out.visibility).toBe('staged');
  expect(out.extra).toMatchObject({ deposition_id: d.id, prereserved_doi: `10.5281/zenodo.${d.id}`, requested_visibility: 'public', dry_run: false });
  expect(d.submitted).toBe(false);
  expect(d.files.map((f) => f.key)).toEqual(['bundle.tar.gz', 'manifest.lock']);
  expect(new TextDecoder().decode(d.files[0]!.bytes)).toBe('bundle bytes');
  expect(d.metadata).toMatchObject({ upload_type: 'software', creators: [{ name: 'Doe, Jane' }, { name: 'Roe, Rick', affiliation: 'Lab' }], license: 'mit', access_right: 'open' });
  expect(d.metadata.description as string).toContain(i.manifest.bundle_sha256);
  // not public before promotion
  expect((await fetch(`${zen.url}/api/records/${d.id}`)).status).toBe(404);
});

test('promote public publishes and mints the DOI; the record is downloadable', async () => {
  const out = await hostingDoi.publish(fx.input({ env: env(), settings }));
  const id = out.extra.deposition_id as number;
  const p = await hostingDoi.promote({ ref: out.ref, extra: out.extra }, 'public', env());
  expect(p).toEqual({ visibility: 'public', extra: { ref: `doi:10.5281/zenodo.${id}`, doi: `10.5281/zenodo.${id}`, doi_url: `https://doi.org/10.5281/zenodo.${id}`, record_id: id, record_url: `${zen.url}/api/records/${id}` } });
  expect(zen.requests.at(-1)!.path).toBe(`/api/deposit/depositions/${id}/actions/publish`);
  expect(await (await fetch(`${zen.url}/api/records/${id}/files/bundle.tar.gz/content`)).text()).toBe('bundle bytes');
});

test('promote unlisted: refused as invalid without a request (a DOI is public)', async () => {
  const out = await hostingDoi.publish(fx.input({ env: env(), settings }));
  zen.requests.length = 0;
  const err = await hostingDoi.promote({ ref: out.ref, extra: out.extra }, 'unlisted', env()).catch((e) => e);
  expect(err.kind).toBe('invalid');
  expect(zen.requests).toEqual([]);
});

test('dry run sends nothing and needs no token', async () => {
  const out = await hostingDoi.publish(fx.input({ env: { SVC_HOSTING_DOI_API: zen.url }, settings, dryRun: true }));
  expect(out.extra.dry_run).toBe(true);
  expect(out.ref.startsWith('doi:zenodo/draft/')).toBe(true);
  expect(zen.requests).toEqual([]);
});

test('no creators: invalid before any request', async () => {
  const err = await hostingDoi.publish(fx.input({ env: env(), settings: { creators: ['  '] } })).catch((e) => e);
  expect(err.kind).toBe('invalid');
  expect(zen.requests).toEqual([]);
});

test('unknown token 401, token without deposit scope 403: auth, the token never shown', async () => {
  const bad = 'zenodo_bad_secret_token';
  const e401 = await hostingDoi.publish(fx.input({ env: env(bad), settings })).catch((e) => e);
  expect(e401.kind).toBe('auth');
  expect(e401.message).toContain('401');
  expect(e401.message).not.toContain(bad);
  const e403 = await hostingDoi.publish(fx.input({ env: env(READONLY), settings })).catch((e) => e);
  expect(e403.kind).toBe('auth');
  const none = await hostingDoi.publish(fx.input({ env: { SVC_HOSTING_DOI_API: zen.url }, settings })).catch((e) => e);
  expect(none.kind).toBe('auth');
});

test('a failed file upload discards the deposition', async () => {
  zen.failNext('/api/files/', 500);
  const err = await hostingDoi.publish(fx.input({ env: env(), settings })).catch((e) => e);
  expect(err.kind).toBe('network');
  expect(zen.depositions).toEqual([]);
  expect(zen.requests.at(-1)?.method).toBe('DELETE');
});

test('promote: another user 403 auth, unknown deposition not_found, twice invalid, no id invalid', async () => {
  const out = await hostingDoi.publish(fx.input({ env: env(), settings }));
  const record = { ref: out.ref, extra: out.extra };
  expect((await hostingDoi.promote(record, 'public', env(OTHER)).catch((e) => e)).kind).toBe('auth');
  expect((await hostingDoi.promote({ ref: 'doi:zenodo/draft/1', extra: { deposition_id: 1 } }, 'public', env()).catch((e) => e)).kind).toBe('not_found');
  await hostingDoi.promote(record, 'public', env());
  expect((await hostingDoi.promote(record, 'public', env()).catch((e) => e)).kind).toBe('invalid');
  expect((await hostingDoi.promote({ ref: 'doi:x', extra: {} }, 'public', env()).catch((e) => e)).kind).toBe('invalid');
});

test('an unreachable API: network', async () => {
  const err = await hostingDoi.publish(fx.input({ env: { SVC_HOSTING_DOI_API: 'http://127.0.0.1:9', ZENODO_TOKEN: TOKEN }, settings })).catch((e) => e);
  expect(err.kind).toBe('network');
});

test('settings: API base and token', () => {
  expect(doiTarget({}, {})).toEqual({ api: 'https://zenodo.org', token: undefined });
  expect(doiTarget({ token: 's' }, { ZENODO_TOKEN: 'z', SVC_HOSTING_DOI_API: 'https://sandbox.zenodo.org/' })).toEqual({ api: 'https://sandbox.zenodo.org', token: 's' });
  expect(() => doiTarget({ api_url: 'zenodo.org' }, {})).toThrow('not an http(s) URL');
});
