import { BackendError, httpError, request, short16, str } from './errors.ts';
import { manifestBytes } from './manifest-bytes.ts';
import { tarballSize } from './tarball-file.ts';
import type { Backend, Env, PublishInput, PublishOutcome, PublishedRecord, PromoteTarget } from './types.ts';

export const DEFAULT_RELEASE_API = 'https://api.github.com';

type Target = { api: string; owner: string; repo: string; token: string | undefined };

/**
 * The repository and token: settings.repo ("owner/name"; else SVC_HOSTING_RELEASE_REPO),
 * settings.token else GITHUB_TOKEN else GH_TOKEN; API base settings.api_url else
 * SVC_HOSTING_RELEASE_API else https://api.github.com. Uploads go to the release's own upload_url.
 */
export function releaseTarget(settings: Record<string, unknown>, env: Env, recorded: Record<string, unknown> = {}): Target {
  const full = str(settings.repo) ?? str(recorded.repo) ?? str(env.SVC_HOSTING_RELEASE_REPO);
  if (!full) throw new BackendError('invalid', 'no repository for hosting-release', 'set repo: owner/name in the publish settings or SVC_HOSTING_RELEASE_REPO');
  const m = /^([A-Za-z0-9-]{1,39})\/([A-Za-z0-9._-]{1,100})$/.exec(full);
  if (!m || m[2] === '.' || m[2] === '..') throw new BackendError('invalid', `repository ${full} is not owner/name`);
  const api = (str(settings.api_url) ?? str(env.SVC_HOSTING_RELEASE_API) ?? DEFAULT_RELEASE_API).replace(/\/+$/, '');
  if (!/^https?:\/\//.test(api)) throw new BackendError('invalid', `hosting-release API ${api} is not an http(s) URL`);
  return { api, owner: m[1] as string, repo: m[2] as string, token: str(settings.token) ?? str(env.GITHUB_TOKEN) ?? str(env.GH_TOKEN) };
}

function needToken(t: Target): string {
  if (!t.token) throw new BackendError('auth', `no token for ${t.owner}/${t.repo}`, 'set GITHUB_TOKEN (a token that may write releases)');
  return t.token;
}

function headers(token: string, extra: Record<string, string> = {}): Record<string, string> {
  return { Authorization: `Bearer ${token}`, Accept: 'application/vnd.github+json', 'X-GitHub-Api-Version': '2022-11-28', 'User-Agent': 'svc', ...extra };
}

type Release = { id: number; html_url?: string; upload_url: string; tag_name: string; draft: boolean; prerelease: boolean };
/** `digest` ("sha256:<hex>") is given by GitHub for assets uploaded since mid 2025. */
type Asset = { id: number; name: string; size: number; browser_download_url?: string; digest?: string | null };

/** 422 "already_exists" is a conflict, other validation failures are invalid. */
async function githubError(res: Response, what: string, token: string): Promise<BackendError> {
  const text = await res.clone().text().catch(() => '');
  if (res.status === 422 && text.includes('already_exists')) return new BackendError('conflict', `${what}: already exists`);
  return httpError(res, what, [token]);
}

/** The release of `tag`, drafts included (GET .../releases lists them for writers; .../tags/{tag} does not). */
async function existingRelease(releases: string, tag: string, token: string): Promise<(Release & { assets?: Asset[] }) | undefined> {
  for (let page = 1; page <= 10; page++) {
    const res = await request(`${releases}?per_page=100&page=${page}`, { headers: headers(token) }, 'release list');
    if (!res.ok) throw await githubError(res, 'listing releases', token);
    const list = (await res.json()) as (Release & { assets?: Asset[] })[];
    const hit = list.find((r) => r.tag_name === tag);
    if (hit || list.length < 100) return hit;
  }
  return undefined;
}

/** The upload URL without its RFC 6570 template tail, with ?name=. */
function uploadUrl(template: string, name: string): string {
  return `${template.replace(/\{[^}]*\}$/, '')}?name=${encodeURIComponent(name)}`;
}

/**
 * hosting-release: a GitHub release per bundle, tag `svc-bundle-<bundle_sha256[:16]>`, assets
 * bundle.tar.gz and manifest.lock. Staged = a draft (seen only by the repository's writers).
 * Promote unlisted = published as a prerelease (reachable by its tag, never the latest); public
 * = a full release made the latest, which `hosting-release:<owner>/<repo>` resolves to.
 */
export const hostingRelease: Backend = {
  name: 'hosting-release',
  async publish(i: PublishInput): Promise<PublishOutcome> {
    const t = releaseTarget(i.settings, i.env);
    const id16 = short16(i.manifest.bundle_sha256, 'bundle_sha256');
    const tag = `svc-bundle-${id16}`;
    const size = tarballSize(i.tarball);
    const ref = `hosting-release:${t.owner}/${t.repo}`;
    const base = { api: t.api, repo: `${t.owner}/${t.repo}`, tag, tarball_sha256: i.tarballSha256, size, requested_visibility: i.visibility };
    if (i.dryRun) return { ref, visibility: 'staged', extra: { ...base, dry_run: true } };
    const token = needToken(t);
    const releases = `${t.api}/repos/${t.owner}/${t.repo}/releases`;
    const created = await request(
      releases,
      {
        method: 'POST',
        headers: headers(token, { 'Content-Type': 'application/json' }),
        body: JSON.stringify({ tag_name: tag, name: `svc bundle ${id16}`, body: `Artifact bundle ${i.manifest.bundle_sha256} (tarball SHA-256 ${i.tarballSha256}).`, draft: true, prerelease: true }),
      },
      'release create',
    );
    if (created.status !== 201) {
      const err = await githubError(created, `creating release ${tag} in ${t.owner}/${t.repo}`, token);
      if (err.kind !== 'conflict') throw err;
      // the tag has its release: the same bundle published before is a duplicate, anything else a conflict
      const had = await existingRelease(releases, tag, token);
      const bundle = had?.assets?.find((a) => a.name === 'bundle.tar.gz');
      if (!had || !bundle || bundle.size !== size || (bundle.digest && bundle.digest !== `sha256:${i.tarballSha256}`)) throw err;
      const visibility = had.draft ? 'staged' : had.prerelease ? 'unlisted' : 'public';
      return { ref, visibility, extra: { ...base, release_id: had.id, html_url: had.html_url, asset_id: bundle.id, asset_url: bundle.browser_download_url, duplicate: true, dry_run: false } };
    }
    const rel = (await created.json()) as Release;
    try {
      const assets: Record<string, Asset> = {};
      for (const [name, body, type, len] of [
        ['bundle.tar.gz', Bun.file(i.tarball), 'application/gzip', size],
        ['manifest.lock', manifestBytes(i.checkpointDir, i.manifest), 'application/json', undefined],
      ] as const) {
        const up = await request(uploadUrl(rel.upload_url, name), { method: 'POST', headers: headers(token, { 'Content-Type': type, ...(len !== undefined ? { 'Content-Length': String(len) } : {}) }), body }, 'release asset upload');
        if (up.status !== 201) throw await githubError(up, `uploading ${name} to release ${tag}`, token);
        assets[name] = (await up.json()) as Asset;
      }
      const bundle = assets['bundle.tar.gz'] as Asset;
      if (bundle.size !== size || (bundle.digest && bundle.digest !== `sha256:${i.tarballSha256}`)) throw new BackendError('invalid', `release ${tag} holds another bundle.tar.gz than the one uploaded`);
      return { ref, visibility: 'staged', extra: { ...base, release_id: rel.id, html_url: rel.html_url, asset_id: bundle.id, asset_url: bundle.browser_download_url, duplicate: false, dry_run: false } };
    } catch (err) {
      // a draft with missing assets is not left behind
      await request(`${releases}/${rel.id}`, { method: 'DELETE', headers: headers(token) }, 'release delete').catch(() => undefined);
      throw err;
    }
  },
  async promote(record: PublishedRecord, target: PromoteTarget, env: Env, settings: Record<string, unknown> = {}) {
    const t = releaseTarget(settings, env, record.extra);
    const id = record.extra.release_id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw new BackendError('invalid', `publish record ${record.ref} has no release id`);
    const token = needToken(t);
    const res = await request(
      `${t.api}/repos/${t.owner}/${t.repo}/releases/${id}`,
      { method: 'PATCH', headers: headers(token, { 'Content-Type': 'application/json' }), body: JSON.stringify({ draft: false, prerelease: target === 'unlisted', make_latest: target === 'public' ? 'true' : 'false' }) },
      'release promote',
    );
    if (!res.ok) throw await githubError(res, `promoting release ${id} of ${t.owner}/${t.repo} to ${target}`, token);
    const rel = (await res.json()) as Release & { assets?: Asset[] };
    const asset = rel.assets?.find((a) => a.name === 'bundle.tar.gz');
    return { visibility: target, extra: { html_url: rel.html_url, tag: rel.tag_name, ...(asset?.browser_download_url ? { asset_url: asset.browser_download_url } : {}) } };
  },
};
