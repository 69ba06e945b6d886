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

/**
 * The model ids a backend serves at `base`, through its model-list endpoint: the local daemon's
 * tags, Anthropic-style `GET /models` for providerb, OpenAI-style `GET /models` otherwise.
 * UnavailableError when nothing answers, UpstreamAnswerError when it answers with a refusal.
 */
export async function listModels(backend: Backend, base: string, env: Env, fetchFn: typeof fetch = fetch): Promise<string[]> {
  if (backend === 'localllm') {
    const d = await daemonModels(base, fetchFn);
    if (!d.reachable) throw new UnavailableError(d.error, 'start the local model daemon, or set LOCALLLM_HOST to where it listens');
    return d.models.map((m) => m.name);
  }
  const key = KEY_VARIABLE[backend] ? env[KEY_VARIABLE[backend]] : undefined;
  const headers: Record<string, string> =
    backend === 'providerb' ? { 'anthropic-version': '2023-06-01', ...(key ? { 'x-api-key': key } : {}) } : key ? { Authorization: `Bearer ${key}` } : {};
  const shown = withoutCredentials(base);
  let res: Response;
  try {
    res = await fetchFn(`${base.replace(/\/+$/, '')}/models`, { headers, signal: AbortSignal.timeout(MODEL_LIST_TIMEOUT_MS), redirect: 'manual' });
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
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new UpstreamAnswerError(`${shown} sent something other than JSON for GET /models`, addressHint(backend));
  }
  const data = isMapping(body) && Array.isArray(body.data) ? body.data : [];
  return data.filter(isMapping).map((m) => String(m.id ?? ''));
}

/** Where a backend's requests go: its configured base, else the provider's own. */
export function backendBase(backend: Backend, baseUrl: string | null): string | null {
  return baseUrl ?? DEFAULT_BASE[backend] ?? null;
}

function addressHint(backend: Backend): string {
  return backend === 'providera' || backend === 'providerb' ? 'check the network, or the API base (llm.base_url, LLM_API_BASE)' : 'start the model server, or set llm.base_url or LLM_API_BASE to where it listens';
}
