import { type Config, type Effective, effective } from '../core/config/config.ts';
import { InputError } from '../core/errors.ts';

export const MODEL_ROLES = ['run', 'idea', 'bfts', 'paper', 'eval', 'lineage', 'root_select', 'rubric_gen', 'rubric_audit', 'replicate', 'judge', 'vlm'] as const;
/** What a model is asked to do; each role has its own model setting (settings.ts): `model` for the run, `model_<role>` for the others. */
export type ModelRole = (typeof MODEL_ROLES)[number];

export type Backend = 'localllm' | 'providera' | 'providerb' | 'openai-compatible' | 'replay';

export const BACKENDS: readonly Backend[] = ['localllm', 'providera', 'providerb', 'openai-compatible', 'replay'];

/** Names other tools use for the same backends. */
const ALIASES: Readonly<Record<string, Backend>> = { openai: 'providera', anthropic: 'providerb', ollama: 'localllm', vllm: 'openai-compatible' };

/**
 * Which model serves a role, through which backend, and why.
 * `baseUrl`: the local daemon's address for localllm (chat goes to its /v1), the API base for
 * openai-compatible, a configured API base for providera/providerb, else null (the provider's own).
 */
export type ModelChoice = { role: ModelRole | 'embedding'; model: string; backend: Backend; baseUrl: string | null; why: string };

export function modelFor(role: ModelRole, cfg: Config): ModelChoice {
  const setting = role === 'run' ? 'model' : `model_${role}`;
  const m = effective(cfg, setting);
  if (m.value === null) throw new InputError(`no model is configured for the ${role} role (${setting})`, 'set SVC_MODEL or llm.model in the workflow');
  const b = effective(cfg, 'backend');
  const configured = backendNamed(b.value === null ? 'localllm' : String(b.value), sourceText(b));
  let model = String(m.value);
  let backend = configured;
  let note = '';
  const prefixed = splitBackendPrefix(model, configured);
  if (configured === 'replay') {
    if (prefixed) model = prefixed.model;
  } else if (prefixed) {
    ({ model, backend } = prefixed);
    note = `; the model id prefix '${prefixed.prefix}/' selects ${backend}`;
  } else if (m.source.startsWith('default') && servedElsewhere(model, configured)) {
    backend = hostedBackendOf(model) as Backend;
    note = `; the built-in hosted model goes to ${backend}, ${configured} does not serve it`;
  }
  const why = `model ${model} from ${sourceText(m)}; backend ${configured} from ${sourceText(b)}${note}`;
  return { role, model, backend, baseUrl: baseUrlFor(backend, backend === configured, cfg), why };
}

/**
 * The embedding model a handle names (`[backend/]model`, as Letta's `openai/text-embedding-3-small`),
 * served like chat: by the configured backend unless the handle's prefix names another.
 * `source` says where the handle was set, for messages.
 */
export function embeddingChoice(handle: string, source: string, cfg: Config): ModelChoice {
  const b = effective(cfg, 'backend');
  const configured = backendNamed(b.value === null ? 'localllm' : String(b.value), sourceText(b));
  const prefixed = splitBackendPrefix(handle.trim(), configured);
  const model = prefixed?.model ?? handle.trim();
  const backend = configured === 'replay' ? 'replay' : (prefixed?.backend ?? configured);
  const why = `embedding model ${model} from ${source}; backend ${configured} from ${sourceText(b)}${prefixed && configured !== 'replay' ? `; the prefix '${prefixed.prefix}/' selects ${backend}` : ''}`;
  return { role: 'embedding', model, backend, baseUrl: baseUrlFor(backend, backend === configured, cfg), why };
}

/** A backend name or alias (case-insensitive), or an InputError listing the valid ones. */
function backendNamed(name: string, source: string): Backend {
  const key = name.trim().toLowerCase();
  const found = (BACKENDS as readonly string[]).includes(key) ? (key as Backend) : ALIASES[key];
  if (found) return found;
  const aliases = Object.entries(ALIASES).map(([a, to]) => `${a} (${to})`).join(', ');
  throw new InputError(`unknown model backend '${name}' from ${source}`, `use one of ${BACKENDS.join(', ')}, or an alias: ${aliases}`);
}

/**
 * "providerb/claude-x" names its backend. Under openai-compatible a served id may itself start
 * with an alias ("openai/gpt-oss-20b" on vLLM), so there only the canonical names select.
 */
function splitBackendPrefix(id: string, configured: Backend): { backend: Backend; model: string; prefix: string } | null {
  const slash = id.indexOf('/');
  if (slash <= 0) return null;
  const prefix = id.slice(0, slash).toLowerCase();
  const canonical = (BACKENDS as readonly string[]).includes(prefix) ? (prefix as Backend) : undefined;
  const backend = canonical ?? (configured === 'openai-compatible' ? undefined : ALIASES[prefix]);
  if (!backend || backend === 'replay') return null;
  return { backend, model: id.slice(slash + 1), prefix };
}

/**
 * A built-in default (a hosted model id) the configured backend cannot serve: the local daemon
 * and the other hosted provider. An openai-compatible server may be a proxy serving anything.
 */
function servedElsewhere(model: string, configured: Backend): boolean {
  const hosted = hostedBackendOf(model);
  return hosted !== null && hosted !== configured && (configured === 'localllm' || configured === 'providera' || configured === 'providerb');
}

/**
 * The id without a backend prefix, canonical or alias. Cassette keys use it, so that a recording
 * made on vLLM with "openai/gpt-oss-20b" replays where the replay backend strips that prefix.
 */
export function withoutBackendPrefix(id: string): string {
  return splitBackendPrefix(id, 'replay')?.model ?? id;
}

/** The hosted backend of a built-in default model id, if it has one. */
function hostedBackendOf(model: string): Backend | null {
  if (/^(gpt-|o\d)/.test(model)) return 'providera';
  if (model.startsWith('claude-')) return 'providerb';
  return null;
}

/** A configured API base (llm.base_url, LLM_API_BASE) belongs to the configured backend only. */
function baseUrlFor(backend: Backend, isConfigured: boolean, cfg: Config): string | null {
  if (backend === 'localllm') return daemonUrl(String(effective(cfg, 'localllm_host').value));
  if (backend === 'replay') return null;
  const base = isConfigured ? effective(cfg, 'base_url').value : null;
  if (base !== null) return String(base).replace(/\/+$/, '');
  if (backend === 'openai-compatible') throw new InputError('the openai-compatible backend needs an API base URL', 'set llm.base_url in the workflow or LLM_API_BASE, e.g. http://127.0.0.1:8000/v1');
  return null;
}

/** LOCALLLM_HOST as the daemon's URL: from `host:port`, a bare host (port 11434) or a full URL. */
export function daemonUrl(host: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? host : `http://${host}`;
  const url = URL.parse(withScheme);
  if (url === null) throw new InputError(`LOCALLLM_HOST '${host}' is not a host:port or a URL`, 'e.g. 127.0.0.1:11434');
  if (withScheme !== host && url.port === '') url.port = '11434';
  // the daemon's address, not its OpenAI-compatible API under /v1
  return url.href.replace(/\/+$/, '').replace(/\/v1$/, '');
}

function sourceText(e: Effective): string {
  return e.source.startsWith('default') ? `built-in default${e.source.slice('default'.length)}` : e.source;
}
