/**
 * The parts of the GitHub REST API the hosting-release backend calls, on 127.0.0.1, with GitHub's
 * JSON shapes: create a release (POST /repos/{o}/{r}/releases; 422 already_exists), update it
 * (PATCH .../releases/{id}), delete it, get the latest (GET .../releases/latest: neither draft nor
 * prerelease), list them (GET .../releases, drafts for writers only) or get one by tag, upload an asset (POST <upload_url>?name=, 422 for a name already
 * there) and download it (GET /{o}/{r}/releases/download/{tag}/{name}; drafts only with a token;
 * answered as GitHub does with a 302 to the asset's storage URL, GET /storage/releases/{id}?sig=).
 * Bearer tokens: unknown 401 "Bad credentials"; a token without write access to the repository
 * 403 "Resource not accessible by personal access token"; an unknown repository 404.
 */
import { type ApiServer, serveApi } from './api-server.ts';

export type { ApiRequest as GithubRequest } from './api-server.ts';

type Asset = { id: number; name: string; content_type: string; size: number; bytes: Uint8Array; created_at: string; sig: string };
type Release = { id: number; owner: string; repo: string; tag_name: string; name: string; body: string; draft: boolean; prerelease: boolean; created_at: string; published_at: string | null; assets: Asset[]; latest_order: number };

export type GithubApiServer = ApiServer & { releases: Release[] };

export function startGithubApiServer(opts: { repos: string[]; tokens: Record<string, string[]> }): GithubApiServer {
  const releases: Release[] = [];
  let nextId = 1000;
  let order = 0;
  const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const json = (status: number, body: unknown) => Response.json(body, { status, headers: { 'x-github-media-type': 'github.v3; format=json' } });
  const docs = 'https://docs.github.com/rest';
  let base = '';
  const user = { login: 'svc-bot', id: 1, type: 'User' };
  const assetJson = (r: Release, a: Asset) => ({
    url: `${base}/repos/${r.owner}/${r.repo}/releases/assets/${a.id}`,
    browser_download_url: `${base}/${r.owner}/${r.repo}/releases/download/${r.tag_name}/${encodeURIComponent(a.name)}`,
    id: a.id,
    node_id: `RA_${a.id}`,
    name: a.name,
    label: null,
    state: 'uploaded',
    content_type: a.content_type,
    size: a.size,
    digest: `sha256:${new Bun.CryptoHasher('sha256').update(a.bytes).digest('hex')}`,
    download_count: 0,
    created_at: a.created_at,
    updated_at: a.created_at,
    uploader: user,
  });
  const releaseJson = (r: Release) => ({
    url: `${base}/repos/${r.owner}/${r.repo}/releases/${r.id}`,
    html_url: `${base}/${r.owner}/${r.repo}/releases/${r.draft ? `tag/untagged-${r.id}` : `tag/${r.tag_name}`}`,
    assets_url: `${base}/repos/${r.owner}/${r.repo}/releases/${r.id}/assets`,
    upload_url: `${base}/repos/${r.owner}/${r.repo}/releases/${r.id}/assets{?name,label}`,
    tarball_url: `${base}/repos/${r.owner}/${r.repo}/tarball/${r.tag_name}`,
    zipball_url: `${base}/repos/${r.owner}/${r.repo}/zipball/${r.tag_name}`,
    id: r.id,
    node_id: `RE_${r.id}`,
    tag_name: r.tag_name,
    target_commitish: 'main',
    name: r.name,
    body: r.body,
    draft: r.draft,
    prerelease: r.prerelease,
    created_at: r.created_at,
    published_at: r.published_at,
    author: user,
    assets: r.assets.map((a) => assetJson(r, a)),
  });
  const api = serveApi(
    async (req, url) => {
      const auth = req.headers.get('authorization') ?? '';
      const token = /^(Bearer|token) (.+)$/.exec(auth)?.[2];
      const grants = token !== undefined ? opts.tokens[token] : undefined;
      if (token !== undefined && !grants) return json(401, { message: 'Bad credentials', documentation_url: docs, status: '401' });
      // asset download: public once the release is published, drafts only for writers
      const dl = /^\/([^/]+)\/([^/]+)\/releases\/download\/([^/]+)\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && dl) {
        const r = releases.find((x) => x.owner === dl[1] && x.repo === dl[2] && x.tag_name === dl[3]);
        const a = r?.assets.find((x) => x.name === decodeURIComponent(dl[4] as string));
        if (!r || !a || (r.draft && !grants?.includes(`${r.owner}/${r.repo}`))) return new Response('Not Found', { status: 404 });
        // as GitHub does: a 302 to the asset's storage, under a signed (here: random) URL
        return new Response(null, { status: 302, headers: { location: `${base}/storage/releases/${a.id}?sig=${a.sig}` } });
      }
      const st = /^\/storage\/releases\/(\d+)$/.exec(url.pathname);
      if (req.method === 'GET' && st) {
        const a = releases.flatMap((x) => x.assets).find((x) => x.id === Number(st[1]) && x.sig === url.searchParams.get('sig'));
        if (!a) return new Response('<?xml version="1.0" encoding="UTF-8"?><Error><Code>AuthenticationFailed</Code></Error>', { status: 403, headers: { 'content-type': 'application/xml' } });
        return new Response(a.bytes, { headers: { 'content-type': 'application/octet-stream', 'content-length': String(a.size) } });
      }
      const m = /^\/repos\/([^/]+)\/([^/]+)\/releases(?:\/(.*))?$/.exec(url.pathname);
      if (!m) return json(404, { message: 'Not Found', documentation_url: docs });
      const [owner, repo, rest] = [m[1] as string, m[2] as string, m[3]];
      const full = `${owner}/${repo}`;
      if (!opts.repos.includes(full)) return json(404, { message: 'Not Found', documentation_url: docs, status: '404' });
      const canWrite = grants?.includes(full) ?? false;
      const ofRepo = releases.filter((r) => r.owner === owner && r.repo === repo);
      if (req.method === 'GET' && rest === undefined) {
        // drafts only for writers; newest first; per_page/page
        const perPage = Math.min(100, Number(url.searchParams.get('per_page') ?? 30));
        const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
        const visible = ofRepo.filter((r) => !r.draft || canWrite).sort((a, b) => b.id - a.id);
        return json(200, visible.slice((page - 1) * perPage, page * perPage).map(releaseJson));
      }
      if (req.method === 'GET' && rest === 'latest') {
        const latest = ofRepo.filter((r) => !r.draft && !r.prerelease).sort((a, b) => b.latest_order - a.latest_order)[0];
        return latest ? json(200, releaseJson(latest)) : json(404, { message: 'Not Found', documentation_url: docs, status: '404' });
      }
      if (req.method === 'GET' && rest?.startsWith('tags/')) {
        const r = ofRepo.find((x) => x.tag_name === decodeURIComponent(rest.slice(5)) && !x.draft);
        return r ? json(200, releaseJson(r)) : json(404, { message: 'Not Found', documentation_url: docs, status: '404' });
      }
      if (req.method !== 'GET' && !token) return json(401, { message: 'Requires authentication', documentation_url: docs, status: '401' });
      if (req.method !== 'GET' && !canWrite) return json(403, { message: 'Resource not accessible by personal access token', documentation_url: docs, status: '403' });
      if (req.method === 'POST' && rest === undefined) {
        const b = (await req.json().catch(() => null)) as Record<string, unknown> | null;
        if (!b || typeof b.tag_name !== 'string' || b.tag_name === '') return json(422, { message: 'Validation Failed', errors: [{ resource: 'Release', code: 'missing_field', field: 'tag_name' }], documentation_url: docs, status: '422' });
        if (ofRepo.some((r) => r.tag_name === b.tag_name)) return json(422, { message: 'Validation Failed', errors: [{ resource: 'Release', code: 'already_exists', field: 'tag_name' }], documentation_url: docs, status: '422' });
        const r: Release = { id: nextId++, owner, repo, tag_name: b.tag_name, name: String(b.name ?? b.tag_name), body: String(b.body ?? ''), draft: b.draft === true, prerelease: b.prerelease === true, created_at: now(), published_at: b.draft === true ? null : now(), assets: [], latest_order: 0 };
        if (!r.draft && !r.prerelease) r.latest_order = ++order;
        releases.push(r);
        return json(201, releaseJson(r));
      }
      const one = /^(\d+)(\/assets)?$/.exec(rest ?? '');
      const r = one ? ofRepo.find((x) => x.id === Number(one[1])) : undefined;
      if (!one || !r) return json(404, { message: 'Not Found', documentation_url: docs, status: '404' });
      if (req.method === 'POST' && one[2]) {
        const name = url.searchParams.get('name');
        if (!name) return json(422, { message: 'Validation Failed', errors: [{ resource: 'ReleaseAsset', code: 'missing_field', field: 'name' }], documentation_url: docs, status: '422' });
        if (r.assets.some((a) => a.name === name)) return json(422, { message: 'Validation Failed', errors: [{ resource: 'ReleaseAsset', code: 'already_exists', field: 'name' }], documentation_url: docs, status: '422' });
        const bytes = new Uint8Array(await req.arrayBuffer());
        const a: Asset = { id: nextId++, name, content_type: req.headers.get('content-type') ?? 'application/octet-stream', size: bytes.length, bytes, created_at: now(), sig: crypto.randomUUID() };
        r.assets.push(a);
        return json(201, assetJson(r, a));
      }
      if (req.method === 'PATCH' && !one[2]) {
        const b = ((await req.json().catch(() => null)) ?? {}) as Record<string, unknown>;
        if (typeof b.draft === 'boolean') {
          if (r.draft && !b.draft) r.published_at = now();
          r.draft = b.draft;
        }
        if (typeof b.prerelease === 'boolean') r.prerelease = b.prerelease;
        if (!r.draft && !r.prerelease && b.make_latest !== 'false') r.latest_order = ++order;
        return json(200, releaseJson(r));
      }
      if (req.method === 'DELETE' && !one[2]) {
        releases.splice(releases.indexOf(r), 1);
        return new Response(null, { status: 204 });
      }
      return json(404, { message: 'Not Found', documentation_url: docs });
    },
    (status) => json(status, { message: 'Server Error', documentation_url: docs }),
  );
  base = api.url;
  return { ...api, releases };
}
