import { UnavailableError } from '../core/errors.ts';
import { withoutCredentials } from '../core/text.ts';
import { isMapping } from '../core/values.ts';

/** One model the local daemon holds, as its model list reports it. */
export type LocalModel = {
  name: string;
  size_bytes: number | null;
  parameter_size: string | null;
  quantization: string | null;
  family: string | null;
  modified_at: string | null;
};

export type DaemonModels = { url: string; reachable: true; version: string | null; models: LocalModel[] } | { url: string; reachable: false; error: string };

const PROBE_TIMEOUT_MS = 3000;

/**
 * The daemon's models through its model-list endpoint; an unreachable daemon is a value, not an
 * error. The `url` it reports is for showing: without a user:password.
 */
export async function daemonModels(url: string, fetchFn: typeof fetch = fetch): Promise<DaemonModels> {
  const shown = withoutCredentials(url);
  try {
    const [tags, version] = await Promise.all([getJson(url, '/api/tags', fetchFn), getJson(url, '/api/version', fetchFn).catch(() => null)]);
    const list = isMapping(tags) && Array.isArray(tags.models) ? tags.models : [];
    const v = isMapping(version) && typeof version.version === 'string' ? version.version : null;
    return { url: shown, reachable: true, version: v, models: list.filter(isMapping).map(localModel) };
  } catch (err) {
    return { url: shown, reachable: false, error: (err as Error).message };
  }
}

/** Models the daemon has loaded now, with the memory each holds. */
export async function loadedModels(url: string, fetchFn: typeof fetch = fetch): Promise<{ name: string; size_bytes: number | null; vram_bytes: number | null }[]> {
  const ps = await getJson(url, '/api/ps', fetchFn);
  const list = isMapping(ps) && Array.isArray(ps.models) ? ps.models : [];
  return list.filter(isMapping).map((m) => ({ name: String(m.name ?? m.model ?? ''), size_bytes: num(m.size), vram_bytes: num(m.size_vram) }));
}

/**
 * Forwards a GET to the daemon. Only the configured daemon is ever asked, and only for a path
 * under it, so the proxy cannot be pointed elsewhere.
 */
export async function proxyGet(url: string, path: string, search: string, fetchFn: typeof fetch = fetch): Promise<Response> {
  const target = new URL(url);
  target.pathname = `/${path.replace(/^\/+/, '')}`;
  target.search = search;
  const res = await reach(url, target, 30_000, fetchFn, { redirect: 'manual' });
  const headers = new Headers();
  const type = res.headers.get('content-type');
  if (type) headers.set('content-type', type);
  return new Response(res.body, { status: res.status, headers });
}

async function getJson(url: string, path: string, fetchFn: typeof fetch): Promise<unknown> {
  const res = await reach(url, new URL(path, url), PROBE_TIMEOUT_MS, fetchFn);
  if (!res.ok) throw new UnavailableError(`the local model daemon at ${withoutCredentials(url)} answered ${res.status} to ${path}`);
  try {
    return await res.json();
  } catch {
    throw new UnavailableError(`the local model daemon at ${withoutCredentials(url)} sent something other than JSON for ${path}`);
  }
}

/** A request to the daemon at `url`, held to `timeoutMs`; one that gets no answer is an UnavailableError naming the daemon. */
async function reach(url: string, target: URL, timeoutMs: number, fetchFn: typeof fetch, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetchFn(target, { signal: AbortSignal.timeout(timeoutMs), ...init });
  } catch (err) {
    const why = (err as Error)?.name === 'TimeoutError' ? 'no answer in time' : 'not reachable';
    throw new UnavailableError(`local model daemon at ${withoutCredentials(url)}: ${why}`, 'start it, or set LOCALLLM_HOST to where it listens');
  }
}

function localModel(m: Record<string, unknown>): LocalModel {
  const d = isMapping(m.details) ? m.details : {};
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  return {
    name: String(m.name ?? m.model ?? ''),
    size_bytes: num(m.size),
    parameter_size: str(d.parameter_size),
    quantization: str(d.quantization_level),
    family: str(d.family),
    modified_at: str(m.modified_at),
  };
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}
