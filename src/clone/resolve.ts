import { copyFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Env } from '../core/config/env-vars.ts';
import { InputError, NotFoundError, UnavailableError } from '../core/errors.ts';
import { statOrNull } from '../core/paths.ts';
import { RegistryClient } from '../registry/client.ts';
import { loadRegistries, type RegistryEntry } from '../registry/registries.ts';
import { downloadToFile, fetchJson, registryFailure } from './fetch.ts';
import type { CloneRef } from './ref.ts';

export const BUNDLE_ASSET = 'bundle.tar.gz';
export const DEFAULT_RELEASE_API = 'https://api.github.com';
export const DEFAULT_DOI_API = 'https://zenodo.org';

export type ResolveOptions = {
  env: Env;
  /** --registry: a registries-file entry by name or URL */
  registry?: string;
  /** the token value (already resolved from --token) */
  token?: string;
  checkpointDir?: string;
  cwd?: string;
  timeoutMs: number;
};

/**
 * Step 1 of clone verification: put the artifact (a bundle tarball) at `file`, inside the clone's
 * temporary directory. Nothing is written anywhere else.
 */
export async function placeArtifact(ref: CloneRef, file: string, opts: ResolveOptions): Promise<{ source: string }> {
  switch (ref.scheme) {
    case 'file': {
      const src = localTarball(ref.path, opts.cwd);
      copyFileSync(src, file);
      return { source: src };
    }
    case 'https':
      await downloadToFile(ref.url, file, { timeoutMs: opts.timeoutMs, headers: opts.token ? { authorization: `Bearer ${opts.token}` } : undefined });
      return { source: ref.url };
    case 'svc':
      return fromRegistry(ref.registry, ref.id, file, opts);
    case 'hosting-release':
      return fromRelease(ref.owner, ref.repo, file, opts);
    case 'doi':
      return fromZenodo(ref.record, ref.doi, file, opts);
  }
}

/** file://: a tarball, or a directory holding bundle.tar.gz (or exactly one *.tar.gz). */
function localTarball(path: string, cwd?: string): string {
  const abs = resolve(cwd ?? process.cwd(), path);
  const st = statOrNull(abs);
  if (!st) throw new NotFoundError(`file://${path}: no such file or directory`);
  if (st.isFile()) return abs;
  if (!st.isDirectory()) throw new InputError(`file://${path} is neither a file nor a directory`);
  const names = readdirSync(abs);
  if (names.includes(BUNDLE_ASSET) && statSync(join(abs, BUNDLE_ASSET)).isFile()) return join(abs, BUNDLE_ASSET);
  const tars = names.filter((n) => /\.(tar\.gz|tgz)$/.test(n) && statSync(join(abs, n)).isFile());
  if (tars.length === 1) return join(abs, tars[0] as string);
  throw new NotFoundError(`file://${path}: the directory holds ${tars.length === 0 ? 'no' : 'more than one'} tarball`, `point at the tarball itself, or keep one ${BUNDLE_ASSET} in it`);
}

/** The registries an svc:// reference may be fetched from, in order. */
export function candidateRegistries(registryInRef: string | null, opts: ResolveOptions): RegistryEntry[] {
  const all = loadRegistries(opts.env, { checkpointDir: opts.checkpointDir, cwd: opts.cwd });
  const pick = registryInRef ?? opts.registry ?? null;
  if (pick !== null) {
    const norm = pick.replace(/\/+$/, '');
    const hit = all.find((r) => r.name === pick || r.url === norm);
    if (hit) return [hit];
    // --registry may be a URL outside the file
    if (registryInRef === null && /^https?:\/\//.test(norm)) return [{ name: norm, url: norm, token: null }];
    throw new NotFoundError(`registry ${pick} is not in the registries file`, 'add it to .svc/registries.yaml (or SVC_REGISTRIES_FILE), or pass its URL with --registry');
  }
  if (all.length === 0) throw new NotFoundError('no registries configured for svc://', 'write .svc/registries.yaml with registries: [{name, url, token}], set SVC_REGISTRIES_FILE, or pass --registry URL');
  return all;
}

/** svc://: the bundle, through the registry client, from each candidate registry in order; the first that has it wins. */
async function fromRegistry(registryInRef: string | null, id: string, file: string, opts: ResolveOptions): Promise<{ source: string }> {
  const regs = candidateRegistries(registryInRef, opts);
  const misses: string[] = [];
  for (const r of regs) {
    const token = opts.token ?? r.token ?? (opts.env.SVC_REGISTRY_TOKEN || null);
    const client = new RegistryClient({ url: r.url, token, stallMs: opts.timeoutMs });
    try {
      // a failed download leaves no file: the next registry writes to the same place
      await client.download(id, file);
      return { source: `${client.url}/artifact/${id}` };
    } catch (err) {
      const failure = registryFailure(err, `svc://${id} at ${r.name}`);
      // try the next registry when this one does not have it; a refusal or an outage is reported as is
      if (failure instanceof NotFoundError && regs.length > 1) {
        misses.push(r.name);
        continue;
      }
      throw failure;
    }
  }
  throw new NotFoundError(`svc://${id}: not found in any registry (${misses.join(', ')})`);
}

type ReleaseAsset = { name?: unknown; browser_download_url?: unknown; url?: unknown };

/** hosting-release: the latest release's asset bundle.tar.gz (GitHub Releases API). */
async function fromRelease(owner: string, repo: string, file: string, opts: ResolveOptions): Promise<{ source: string }> {
  const base = (opts.env.SVC_HOSTING_RELEASE_API || DEFAULT_RELEASE_API).replace(/\/+$/, '');
  const headers: Record<string, string> = { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28', 'user-agent': 'svc-clone' };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const what = `hosting-release:${owner}/${repo}`;
  const rel = (await fetchJson(`${base}/repos/${owner}/${repo}/releases/latest`, { headers, timeoutMs: opts.timeoutMs, what: `${what} latest release` })) as { assets?: unknown; tag_name?: unknown };
  const assets = Array.isArray(rel?.assets) ? (rel.assets as ReleaseAsset[]) : [];
  const asset = assets.find((a) => a?.name === BUNDLE_ASSET);
  if (!asset || typeof asset.browser_download_url !== 'string') throw new NotFoundError(`${what}: the latest release${typeof rel?.tag_name === 'string' ? ` (${rel.tag_name})` : ''} has no ${BUNDLE_ASSET} asset`);
  const url = asset.browser_download_url;
  await downloadToFile(url, file, { timeoutMs: opts.timeoutMs, headers: { 'user-agent': 'svc-clone', accept: 'application/octet-stream' }, what: `${what} ${BUNDLE_ASSET}` });
  return { source: url };
}

type ZenodoFile = { key?: unknown; links?: { self?: unknown; content?: unknown } };

/** doi:10.5281/zenodo.<n>: the record's file bundle.tar.gz (Zenodo records API). */
async function fromZenodo(record: string, doi: string, file: string, opts: ResolveOptions): Promise<{ source: string }> {
  const base = (opts.env.SVC_HOSTING_DOI_API || DEFAULT_DOI_API).replace(/\/+$/, '');
  const headers: Record<string, string> = opts.token ? { authorization: `Bearer ${opts.token}` } : {};
  const what = `doi:${doi}`;
  const rec = (await fetchJson(`${base}/api/records/${record}`, { headers, timeoutMs: opts.timeoutMs, what })) as { files?: unknown };
  const files = Array.isArray(rec?.files) ? (rec.files as ZenodoFile[]) : [];
  const f = files.find((x) => x?.key === BUNDLE_ASSET);
  if (!f) throw new NotFoundError(`${what}: the record has no ${BUNDLE_ASSET}`);
  const link = typeof f.links?.content === 'string' ? f.links.content : typeof f.links?.self === 'string' ? f.links.self : `${base}/api/records/${record}/files/${BUNDLE_ASSET}/content`;
  if (!/^https?:\/\//.test(link)) throw new UnavailableError(`${what}: the record's file link is not a URL`);
  await downloadToFile(link, file, { timeoutMs: opts.timeoutMs, headers, what: `${what} ${BUNDLE_ASSET}` });
  return { source: link };
}
