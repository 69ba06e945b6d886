import type { Env } from '../core/config/env-vars.ts';
import { KEY_VARIABLE } from '../core/config/env-vars.ts';
import { TooLargeError, UnavailableError, UpstreamAnswerError } from '../core/errors.ts';
import { readCapped } from '../core/outbound.ts';
import { withoutCredentials } from '../core/text.ts';
import { isMapping } from '../core/values.ts';
import { DEFAULT_BASE } from '../llm/failures.ts';
import { daemonModels } from '../llm/local-daemon.ts';
import type { Backend } from '../llm/route.ts';

/** How long a model list may take: the doctor asks, it does not wait like a run. */
export const MODEL_LIST_TIMEOUT_MS = 5000;
/** Far above any provider's model list. */
const MAX_LIST_BYTES = 8 * 1024 * 1024;

/** The ids a backend listed, and whether a model absent from them is certainly not served. */
export type ModelList = { ids: string[]; complete: boolean };

/** Anthropic-style lists are paged: this many ids a page, and at most this many pages. */
const PAGE_LIMIT = 1000;
const MAX_PAGES = 20;

/**
 * The model ids a backend serves at `base`, through its model-list endpoint: the local daemon's
 * tags, Anthropic-style `GET /models` (paged) for providerb, OpenAI-style `GET /models` otherwise.
 * Anthropic's list holds dated ids, not the aliases its API also accepts, so it is never complete.
 * UnavailableError when nothing answers, UpstreamAnswerError when it answers with a refusal.
 */
export async function listModels(backend: Backend, base: string, env: Env, fetchFn: typeof fetch = fetch): Promise<ModelList> {
  if (backend === 'localllm') {
    const d = await daemonModels(base, fetchFn);
    if (!d.reachable) throw new UnavailableError(d.error, 'start the local model daemon, or set LOCALLLM_HOST to where it listens');
    return { ids: d.models.map((m) => m.name), complete: true };
  }
  const key = KEY_VARIABLE[backend] ? env[KEY_VARIABLE[backend]] : undefined;
  const endpoint = `${base.replace(/\/+$/, '')}/models`;
  if (backend !== 'providerb') {
    const body = await getList(backend, endpoint, base, key ? { Authorization: `Bearer ${key}` } : {}, fetchFn);
    return { ids: idsOf(body), complete: true };
  }
  const headers = { 'anthropic-version': '2023-06-01', ...(key ? { 'x-api-key': key } : {}) };
  const ids: string[] = [];
  let after: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = new URLSearchParams({ limit: String(PAGE_LIMIT), ...(after === null ? {} : { after_id: after }) });
    const body = await getList(backend, `${endpoint}?${query}`, base, headers, fetchFn);
    ids.push(...idsOf(body));
    const next = isMapping(body) && body.has_more === true && typeof body.last_id === 'string' ? body.last_id : null;
    if (next === null) break;
    after = next;
  }
  return { ids, complete: false };
}

/** One GET of a model list, its body parsed; the errors name the base without its credentials. */
async function getList(backend: Backend, url: string, base: string, headers: Record<string, string>, fetchFn: typeof fetch): Promise<unknown> {
  const shown = withoutCredentials(base);
  let res: Response;
  try {
    res = await fetchFn(url, { headers, signal: AbortSignal.timeout(MODEL_LIST_TIMEOUT_MS), redirect: 'manual' });
  } catch (err) {
    const why = (err as Error)?.name === 'TimeoutError' ? `no answer in ${MODEL_LIST_TIMEOUT_MS / 1000} s` : 'not reachable';
    throw new UnavailableError(`${shown}: ${why}`, addressHint(backend));
  }
  if (res.status === 401 || res.status === 403) {
    await res.body?.cancel().catch(() => {});
    throw new UpstreamAnswerError(`${shown} refused the key (${res.status})`, `check ${KEY_VARIABLE[backend] ?? 'the key'}`);
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    throw new UpstreamAnswerError(`${shown} answered ${res.status} to GET /models`, addressHint(backend));
  }
  const text = await readCapped(res, MAX_LIST_BYTES, () => new TooLargeError(`${shown} sent more than ${MAX_LIST_BYTES} bytes for its model list`));
  try {
    return JSON.parse(text);
  } catch {
    throw new UpstreamAnswerError(`${shown} sent something other than JSON for GET /models`, addressHint(backend));
  }
}

function idsOf(body: unknown): string[] {
  const data = isMapping(body) && Array.isArray(body.data) ? body.data : [];
  return data.filter(isMapping).map((m) => String(m.id ?? ''));
}

/**
 * Whether `model` is among the listed ids as the backend would resolve it: Anthropic accepts an
 * alias of a dated id (claude-x for claude-x-20250101); the local daemon reads a name without a
 * tag as `:latest`.
 */
export function modelListed(backend: Backend, model: string, ids: readonly string[]): boolean {
  if (ids.includes(model)) return true;
  if (backend === 'providerb') return ids.some((id) => id.startsWith(`${model}-`));
  if (backend === 'localllm' && !model.includes(':')) return ids.includes(`${model}:latest`);
  return false;
}

/** Where a backend's requests go: its configured base, else the provider's own. */
export function backendBase(backend: Backend, baseUrl: string | null): string | null {
  return baseUrl ?? DEFAULT_BASE[backend] ?? null;
}

function addressHint(backend: Backend): string {
  return backend === 'providera' || backend === 'providerb' ? 'check the network, or the API base (llm.base_url, LLM_API_BASE)' : 'start the model server, or set llm.base_url or LLM_API_BASE to where it listens';
}
