import { RegistryClient, RegistryError } from '../../registry/client.ts';
import { BackendError, kindOfStatus, scrub, short16, str } from './errors.ts';
import { tarballSize } from './tarball-file.ts';
import type { Backend, Env, PublishInput, PublishOutcome, PublishedRecord, PromoteTarget } from './types.ts';

/** The registry to talk to: settings.url / settings.token (fed from the registries file), else SVC_REGISTRY_URL / SVC_REGISTRY_TOKEN. */
export function registryTarget(settings: Record<string, unknown>, env: Env, recorded?: unknown): { url: string; token: string | undefined } {
  const url = str(settings.url) ?? str(recorded) ?? str(env.SVC_REGISTRY_URL);
  if (!url) throw new BackendError('invalid', 'no registry URL for svc-registry', 'add the registry to .svc/registries.yaml or set SVC_REGISTRY_URL');
  const parsed = URL.parse(url);
  if (parsed === null) throw new BackendError('invalid', `registry URL ${url} is not a URL`);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new BackendError('invalid', `registry URL ${url} is not http(s)`);
  return { url: url.replace(/\/+$/, ''), token: str(settings.token) ?? str(env.SVC_REGISTRY_TOKEN) };
}

function needToken(token: string | undefined, url: string): string {
  if (!token) throw new BackendError('auth', `no token for registry ${url}`, 'give the registry a token in .svc/registries.yaml or set SVC_REGISTRY_TOKEN');
  return token;
}

/** A call of the registry client, its failure as a BackendError of the kind its status means (no token in it). */
async function backendCall<T>(call: () => Promise<T>, what: string, token: string): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof SyntaxError) throw new BackendError('invalid', `${what}: the registry's answer is not JSON`);
    if (!(err instanceof RegistryError)) throw err;
    if (err.status === 0) throw new BackendError('network', scrub(`${what}: ${err.message}`, [token]));
    throw new BackendError(kindOfStatus(err.status), scrub(`${what}: HTTP ${err.status} ${err.detail ?? err.message}`, [token]));
  }
}

/**
 * svc-registry: streams the tarball to `POST <url>/artifact?visibility=staged` with its SHA-256 in
 * X-Svc-Sha256; the registry's id is the tarball's first 16 hex, the ref `svc://<id>`.
 */
export const svcRegistry: Backend = {
  name: 'svc-registry',
  async publish(i: PublishInput): Promise<PublishOutcome> {
    const { url, token } = registryTarget(i.settings, i.env);
    const id = short16(i.tarballSha256, 'tarball SHA-256');
    const size = tarballSize(i.tarball);
    const name = str(i.settings.name);
    const base = { registry: url, ...(name ? { registry_name: name } : {}), id, tarball_sha256: i.tarballSha256, size, requested_visibility: i.visibility };
    if (i.dryRun) return { ref: `svc://${id}`, visibility: 'staged', extra: { ...base, dry_run: true } };
    const bearer = needToken(token, url);
    const a = await backendCall(() => new RegistryClient({ url, token: bearer }).upload(i.tarball, 'staged', i.tarballSha256), `registry upload to ${url}`, bearer);
    if (!a || typeof a.id !== 'string' || typeof a.visibility !== 'string') throw new BackendError('invalid', `registry ${url} answered the upload without an id`);
    if (a.id !== id || (typeof a.sha256 === 'string' && a.sha256 !== i.tarballSha256)) {
      throw new BackendError('invalid', `registry ${url} stored ${a.id}, not the bundle's id ${id}`);
    }
    return { ref: a.ref ?? `svc://${id}`, visibility: a.visibility, extra: { ...base, duplicate: a.duplicate === true, dry_run: false } };
  },
  async promote(record: PublishedRecord, target: PromoteTarget, env: Env, settings: Record<string, unknown> = {}) {
    const { url, token } = registryTarget(settings, env, record.extra.registry);
    const id = str(record.extra.id) ?? record.ref.replace(/^svc:\/\//, '');
    if (!/^[0-9a-f]{16}$/.test(id)) throw new BackendError('invalid', `publish record ref ${record.ref} is not an svc://<id> ref`);
    const bearer = needToken(token, url);
    const a = await backendCall(() => new RegistryClient({ url, token: bearer }).promote(id, target), `registry promote of ${id} to ${target}`, bearer);
    if (!a || typeof a.visibility !== 'string') throw new BackendError('invalid', `registry ${url} answered the promote without a visibility`);
    return { visibility: a.visibility, extra: { registry: url, id } };
  },
};
