import { BackendError, httpError, request, short16, str } from './errors.ts';
import { manifestBytes } from './manifest-bytes.ts';
import { tarballSize } from './tarball-file.ts';
import type { Backend, Env, PublishInput, PublishOutcome, PublishedRecord, PromoteTarget } from './types.ts';

export const DEFAULT_DOI_API = 'https://zenodo.org';

type Target = { api: string; token: string | undefined };

/** API base: settings.api_url, else SVC_HOSTING_DOI_API, else https://zenodo.org; token: settings.token, else ZENODO_TOKEN. */
export function doiTarget(settings: Record<string, unknown>, env: Env, recorded: Record<string, unknown> = {}): Target {
  const api = (str(settings.api_url) ?? str(recorded.api) ?? str(env.SVC_HOSTING_DOI_API) ?? DEFAULT_DOI_API).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(api)) throw new BackendError('invalid', `hosting-doi API ${api} is not an http(s) URL`);
  return { api, token: str(settings.token) ?? str(env.ZENODO_TOKEN) };
}

function needToken(t: Target): string {
  if (!t.token) throw new BackendError('auth', `no token for ${t.api}`, 'set ZENODO_TOKEN (a token with deposit:write and deposit:actions)');
  return t.token;
}

type Creator = { name: string; affiliation?: string; orcid?: string };

/** Deposition metadata from the settings (creators required: a DOI names its authors). */
export function depositionMetadata(i: PublishInput): Record<string, unknown> {
  const raw = i.settings.creators;
  const list = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : [];
  const creators: Creator[] = list
    .map((c) => (typeof c === 'string' ? { name: c.trim() } : c && typeof c === 'object' ? (c as Creator) : { name: '' }))
    .filter((c) => typeof c.name === 'string' && c.name.trim() !== '')
    .map((c) => ({ name: c.name.trim(), ...(str(c.affiliation) ? { affiliation: str(c.affiliation) } : {}), ...(str(c.orcid) ? { orcid: str(c.orcid) } : {}) }));
  if (creators.length === 0) throw new BackendError('invalid', 'hosting-doi needs creators', 'set creators: ["Family, Given"] in the publish settings');
  const id16 = short16(i.manifest.bundle_sha256, 'bundle_sha256');
  const license = i.manifest.publish.license;
  return {
    upload_type: str(i.settings.upload_type) ?? 'software',
    title: str(i.settings.title) ?? `svc artifact bundle ${id16}`,
    creators,
    description: str(i.settings.description) ?? `Experiment artifact bundle. bundle_sha256 ${i.manifest.bundle_sha256}; bundle.tar.gz SHA-256 ${i.tarballSha256}.`,
    access_right: 'open',
    ...(license ? { license: license.toLowerCase() } : {}),
  };
}

type Deposition = { id: number; state?: string; submitted?: boolean; doi?: string; doi_url?: string; record_id?: number; links: Record<string, string>; metadata?: { prereserve_doi?: { doi?: string } } };

/**
 * hosting-doi: a Zenodo deposition holding bundle.tar.gz and manifest.lock. Staged = the
 * deposition left unpublished (seen by its owner only), ref `doi:zenodo/draft/<id>`. Promote public
 * = publish, which mints the DOI; the outcome's extra.ref is `doi:<doi>` (the caller replaces the
 * record's ref). There is no unlisted DOI: promoting to unlisted fails as invalid.
 */
export const hostingDoi: Backend = {
  name: 'hosting-doi',
  async publish(i: PublishInput): Promise<PublishOutcome> {
    const t = doiTarget(i.settings, i.env);
    const size = tarballSize(i.tarball);
    const metadata = depositionMetadata(i);
    const base = { api: t.api, tarball_sha256: i.tarballSha256, size, requested_visibility: i.visibility };
    if (i.dryRun) return { ref: 'doi:zenodo/draft/<new>', visibility: 'staged', extra: { ...base, title: metadata.title, dry_run: true } };
    const token = needToken(t);
    const auth = { Authorization: `Bearer ${token}` };
    const created = await request(`${t.api}/api/deposit/depositions`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: '{}' }, 'deposition create');
    if (created.status !== 201) throw await httpError(created, `creating a deposition at ${t.api}`, [token]);
    const dep = (await created.json()) as Deposition;
    const bucket = dep.links?.bucket;
    const self = dep.links?.self ?? `${t.api}/api/deposit/depositions/${dep.id}`;
    try {
      if (!bucket) throw new BackendError('invalid', `deposition ${dep.id} has no file bucket link`);
      for (const [name, body, len] of [
        ['bundle.tar.gz', Bun.file(i.tarball), size],
        ['manifest.lock', manifestBytes(i.checkpointDir, i.manifest), undefined],
      ] as const) {
        const up = await request(`${bucket}/${name}`, { method: 'PUT', headers: { ...auth, 'Content-Type': 'application/octet-stream', ...(len !== undefined ? { 'Content-Length': String(len) } : {}) }, body }, 'deposition file upload');
        if (!up.ok) throw await httpError(up, `uploading ${name} to deposition ${dep.id}`, [token]);
        const f = (await up.json().catch(() => ({}))) as { size?: number };
        if (len !== undefined && f.size !== undefined && f.size !== len) throw new BackendError('invalid', `deposition ${dep.id} holds ${f.size} bytes of ${name}, not ${len}`);
      }
      const meta = await request(self, { method: 'PUT', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ metadata }) }, 'deposition metadata');
      if (!meta.ok) throw await httpError(meta, `setting the metadata of deposition ${dep.id}`, [token]);
    } catch (err) {
      // an unpublished deposition can be discarded: nothing half-made stays
      await request(self, { method: 'DELETE', headers: auth }, 'deposition delete').catch(() => undefined);
      throw err;
    }
    return {
      ref: `doi:zenodo/draft/${dep.id}`,
      visibility: 'staged',
      extra: { ...base, deposition_id: dep.id, deposition_url: self, html_url: dep.links?.html, prereserved_doi: dep.metadata?.prereserve_doi?.doi, dry_run: false },
    };
  },
  async promote(record: PublishedRecord, target: PromoteTarget, env: Env, settings: Record<string, unknown> = {}) {
    if (target !== 'public') throw new BackendError('invalid', 'hosting-doi cannot be unlisted: a published DOI is public', 'promote with --target public');
    const t = doiTarget(settings, env, record.extra);
    const id = record.extra.deposition_id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw new BackendError('invalid', `publish record ${record.ref} has no deposition id`);
    const token = needToken(t);
    const res = await request(`${t.api}/api/deposit/depositions/${id}/actions/publish`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } }, 'deposition publish');
    if (res.status !== 202 && res.status !== 200) throw await httpError(res, `publishing deposition ${id}`, [token]);
    const dep = (await res.json()) as Deposition;
    const doi = str(dep.doi);
    if (!doi) throw new BackendError('invalid', `deposition ${id} was published without a DOI`);
    return { visibility: 'public', extra: { ref: `doi:${doi}`, doi, doi_url: dep.doi_url ?? `https://doi.org/${doi}`, record_id: dep.record_id ?? id, record_url: dep.links?.record ?? dep.links?.html } };
  },
};
