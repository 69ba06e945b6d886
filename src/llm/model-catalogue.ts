import { homedir } from 'node:os';
import type { Config } from '../core/config/config.ts';
import type { Env } from '../core/config/env-vars.ts';
import { effective } from '../core/config/config.ts';
import { diskFigures, machineMemory } from '../core/system/metrics.ts';
import { withoutCredentials } from '../core/text.ts';
import { KEY_VARIABLE } from '../core/config/env-vars.ts';
import { type DaemonModels, daemonModels, loadedModels } from './local-daemon.ts';
import { PROVIDER_ID } from './prices.ts';
import { type Backend, daemonUrl, MODEL_ROLES, type ModelChoice, modelFor } from './route.ts';

export type HostedProvider = { id: Backend; key_variable: string; key_present: boolean; models: string[]; models_from: string };

export type ModelCatalogue = {
  /** the model of every role, with the reason */
  roles: ModelChoice[];
  local: DaemonModels;
  /** hosted providers whose key is set, with the models the price table knows for them */
  providers: HostedProvider[];
  openai_compatible: { base_url: string | null; key_present: boolean };
};

/** What models svc can use here: the role routing, the local daemon's models, hosted providers with keys. */
export async function modelCatalogue(cfg: Config, env: Env, fetchFn: typeof fetch = fetch): Promise<ModelCatalogue> {
  // a user:password in an API base is a secret: shown without it
  const roles = MODEL_ROLES.map((r) => modelFor(r, cfg)).map((c) => (c.baseUrl ? { ...c, baseUrl: withoutCredentials(c.baseUrl) } : c));
  const local = await daemonModels(daemonUrl(String(effective(cfg, 'localllm_host').value)), fetchFn);
  const providers: HostedProvider[] = [];
  for (const id of ['providera', 'providerb'] as const) {
    const variable = KEY_VARIABLE[id] as string;
    if (!env[variable]) continue;
    providers.push({ id, key_variable: variable, key_present: true, models: await priceTableModels(PROVIDER_ID[id] as string), models_from: 'price table' });
  }
  const base = effective(cfg, 'base_url').value;
  return { roles, local, providers, openai_compatible: { base_url: base === null ? null : withoutCredentials(String(base)), key_present: Boolean(env.LLM_API_KEY) } };
}

async function priceTableModels(providerId: string): Promise<string[]> {
  const { findProvider } = await import('@pydantic/genai-prices');
  const provider = findProvider({ providerId });
  return (provider?.models ?? []).filter((m) => !m.deprecated).map((m) => m.id);
}

export type ModelResources = {
  model: string;
  /** listed: the daemon holds it; estimated: from the parameter count in its name, at 4-bit quantisation */
  source: 'listed' | 'estimated';
  disk_bytes: number;
  /** weights plus about a fifth for the context cache and runtime */
  memory_needed_bytes: number;
  fits_in_memory: boolean;
  fits_on_disk: boolean;
  loaded: boolean;
};

const RUNTIME_OVERHEAD = 1.2;
const BYTES_PER_PARAM_Q4 = 0.5625;

/**
 * Memory and disk each local model needs, against what this machine has free. `wanted` adds a
 * model the daemon does not hold yet, estimated from its name (`qwen3:8b`), so a researcher can
 * tell before pulling it.
 */
export async function localModelResources(cfg: Config, env: Env, wanted?: string, fetchFn: typeof fetch = fetch) {
  const url = daemonUrl(String(effective(cfg, 'localllm_host').value));
  const listed = await daemonModels(url, fetchFn);
  const memory = machineMemory();
  const disk = diskFigures(env.HOME || homedir());
  const held = listed.reachable ? listed.models : [];
  const loaded = new Set(listed.reachable ? (await loadedModels(url, fetchFn).catch(() => [])).map((m) => m.name) : []);
  const figure = (model: string, source: ModelResources['source'], size: number, onDisk: boolean): ModelResources => {
    const need = Math.round(size * RUNTIME_OVERHEAD);
    const isLoaded = loaded.has(model);
    return { model, source, disk_bytes: size, memory_needed_bytes: need, fits_in_memory: isLoaded || need <= memory.available_bytes, fits_on_disk: onDisk || size <= disk.free_bytes, loaded: isLoaded };
  };
  const models = held.filter((m) => m.size_bytes !== null && (wanted === undefined || m.name === wanted)).map((m) => figure(m.name, 'listed', m.size_bytes as number, true));
  if (wanted !== undefined && models.length === 0) {
    const params = parameterCount(wanted);
    if (params !== null) models.push(figure(wanted, 'estimated', Math.round(params * BYTES_PER_PARAM_Q4), false));
  }
  return { daemon: listed, machine: { memory, disk }, models };
}

/** `qwen3:8b` → 8e9, `llama3.2:1.5b` → 1.5e9, `phi:2.7B-q4` → 2.7e9; null when the name gives no size. */
export function parameterCount(name: string): number | null {
  const m = /(?:^|[:_-])(\d+(?:\.\d+)?)([bm])(?![a-z])/i.exec(name);
  if (!m?.[1] || !m[2]) return null;
  return Number(m[1]) * (m[2].toLowerCase() === 'b' ? 1e9 : 1e6);
}
