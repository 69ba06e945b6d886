import type { Workflow } from '../../schema/workflow.ts';
import { InputError } from '../errors.ts';
import { type Config, effective } from './config.ts';
import { DASHBOARD_KEYS, type DashboardKey, dashboardKey, ORS, ORS_KEYS, orsKey } from './dashboard-setting-keys.ts';
import { PROFILE_NAMES, PROFILES } from './profiles.ts';
import { apiKeyUpdate } from './update-settings.ts';
import { isSecretKey, readSavedSettings, type SavedSettings, saveSettings } from './saved-settings.ts';
import { secretKeyPath, withoutSecretKeys } from './secrets.ts';
import { isMapping, isPresent } from '../values.ts';

/** Where a displayed value comes from: 'saved', 'env NAME', 'workflow' or 'default'. */
export type SettingSource = string;
export type SettingsView = Record<string, unknown> & { _sources: Record<string, SettingSource> };

/** The view's own field: computed on every read, never stored. */
const SOURCES = '_sources';

/** Only these two are refilled from the workflow when settings.json holds them empty. */
const REFILLED = new Set(['llm_model', 'llm_provider']);

/**
 * A key that would hold a secret: the shared rule, plus any key of our own we do not know that
 * ends in `key` (a search service's `..._key` from an older settings.json is an API key).
 */
export function isSecretSetting(key: string): boolean {
  return isSecretKey(key) || (!dashboardKey(key) && !orsKey(key) && /key$/i.test(key));
}

/**
 * The dashboard's settings: every known key with its value, settings.json over the defaults
 * (unknown saved keys pass through), and `_sources` saying where each value comes from.
 * A saved value wins, even an empty one, except that an empty llm_model or llm_provider is
 * refilled from the workflow; a key not saved comes from the environment, then the workflow,
 * then the built-in default. Secret-looking keys are never part of it.
 */
export function settingsView(cfg: Config): SettingsView {
  const wf = cfg.workflow.workflow;
  const sources: Record<string, SettingSource> = {};
  const out: Record<string, unknown> = {};
  const saved = withoutSecretKeys(cfg.saved, isSecretSetting);
  for (const k of DASHBOARD_KEYS) {
    const r = resolveKey(cfg, wf, k, saved);
    out[k.key] = r.value;
    sources[k.key] = r.source;
  }
  out[ORS] = orsBlock(cfg, wf, saved[ORS], sources);
  for (const [k, v] of Object.entries(saved)) {
    if (dashboardKey(k) || k === ORS || k === SOURCES) continue;
    out[k] = v;
    sources[k] = 'saved';
  }
  return { ...out, [SOURCES]: sources };
}

/** The nested ors block, merged key by key; a saved value that is not an object passes through as it is. */
function orsBlock(cfg: Config, wf: Workflow, saved: unknown, sources: Record<string, SettingSource>): unknown {
  if (saved !== undefined && !isMapping(saved)) {
    sources[ORS] = 'saved';
    return saved;
  }
  const inner = saved ?? {};
  const ors: Record<string, unknown> = {};
  for (const k of ORS_KEYS) {
    const r = resolveKey(cfg, wf, k, inner);
    ors[k.key] = r.value;
    sources[`${ORS}.${k.key}`] = r.source;
  }
  for (const [k, v] of Object.entries(inner)) {
    if (orsKey(k)) continue;
    ors[k] = v;
    sources[`${ORS}.${k}`] = 'saved';
  }
  return ors;
}

function resolveKey(cfg: Config, wf: Workflow, k: DashboardKey, saved: SavedSettings): { value: unknown; source: SettingSource } {
  // a key saved empty keeps the display rule of its own (it wins, or is refilled from the workflow)
  const run = k.setting && !Object.hasOwn(saved, k.key) ? asTheRunSees(cfg, k, k.setting) : null;
  if (run) return run;
  if (Object.hasOwn(saved, k.key)) {
    const v = saved[k.key];
    const fromWorkflow = !v && REFILLED.has(k.key) ? k.workflow?.(wf) : undefined;
    return isPresent(fromWorkflow) ? { value: fromWorkflow, source: 'workflow' } : { value: v, source: 'saved' };
  }
  const env = firstEnv(cfg, k.env);
  if (env) return { value: fromText(k, env.value), source: env.source };
  const inWorkflow = k.workflow?.(wf);
  if (isPresent(inWorkflow)) return { value: inWorkflow, source: 'workflow' };
  const late = firstEnv(cfg, k.envFallback);
  if (late) return { value: fromText(k, late.value), source: late.source };
  return { value: structuredClone(k.default), source: 'default' };
}

/**
 * A key that shows a run setting: the value `svc settings` and the run resolve (the environment
 * over settings.json over the workflow), so the page never shows a model the run will not use.
 * A value that does not parse is left to the display rules below, which show it as it is.
 */
function asTheRunSees(cfg: Config, k: DashboardKey, setting: string): { value: unknown; source: SettingSource } | null {
  let e: ReturnType<typeof effective>;
  try {
    e = effective(cfg, setting);
  } catch {
    return null;
  }
  // a setting that takes another's value when unset (a phase model, the run model) shows as unset
  if (e.source.includes(' (as ') || e.value === null) return { value: structuredClone(k.default), source: 'default' };
  return { value: e.value, source: sourceName(cfg, e.source) };
}

/** The dashboard's name for where a value came from: saved, workflow, env NAME, profile P or default. */
function sourceName(cfg: Config, source: string): SettingSource {
  const base = source.replace(/ \(as [^)]*\)$/, '');
  if (base.startsWith(`${cfg.savedPath}: `)) return 'saved';
  if (base.startsWith(`${cfg.workflow.path}: `)) return 'workflow';
  const variable = /(?:^env |: )([A-Z][A-Z0-9_]*)$/.exec(base);
  if (variable) return `env ${variable[1]}`;
  return base;
}

/** The environment as svc sees it: the process environment, then the .env files. */
function firstEnv(cfg: Config, names: readonly string[] = []): { value: string; source: string } | undefined {
  for (const name of names) {
    const v = cfg.env[name] || cfg.dotenv.get(name)?.value;
    if (v) return { value: v, source: `env ${name}` };
  }
  return undefined;
}

/** A variable's text as the key's type; text that does not parse is shown as it is. */
function fromText(k: DashboardKey, text: string): unknown {
  if (k.kind === 'int' || k.kind === 'number') {
    const n = Number(text.trim());
    return text.trim() !== '' && Number.isFinite(n) ? n : text;
  }
  if (k.kind === 'boolean') {
    if (/^(1|true|on|yes)$/i.test(text.trim())) return true;
    if (/^(0|false|off|no)$/i.test(text.trim())) return false;
  }
  return text;
}

/**
 * Save settings from the dashboard: a JSON object of keys. Known keys must have their type (an
 * empty string or null clears one); secrets are refused at any depth; `_sources`, which the view
 * carries, is not stored. The `ors` block merges with the saved one key by key. Everything is
 * checked before settings.json is written, atomically.
 */
/**
 * Saves a settings body as the dashboard posts it. An `api_key` in it (the ARI web UI sends the
 * key with the provider) goes to the project's .env as that provider's variable, as
 * POST /api/env-keys would put it, and never to settings.json; an empty one means unchanged.
 * Everything is checked before anything is written. Returns the variable the key became.
 */
export function saveSettingsBody(cfg: Config, file: string, body: unknown): { keyVariable: string | null } {
  if (!isMapping(body)) throw new InputError('the body must be a JSON object of settings to save');
  const { api_key: key, ...rest } = body;
  if (key !== undefined && key !== null && typeof key !== 'string') throw new InputError('api_key must be a string');
  const provider = [rest.llm_provider, rest.llm_backend].find((v): v is string => typeof v === 'string' && v !== '');
  const keyUpdate = key ? apiKeyUpdate(cfg, provider ?? String(effective(cfg, 'backend').value), key.trim()) : null;
  saveDashboardSettings(file, rest);
  keyUpdate?.write();
  return { keyVariable: keyUpdate?.variable ?? null };
}

export function saveDashboardSettings(file: string, body: unknown): SavedSettings {
  if (!isMapping(body)) throw new InputError('the body must be a JSON object of settings to save');
  const updates: SavedSettings = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === SOURCES) continue;
    const secret = isSecretSetting(key) ? key : secretKeyPath(value, isSecretSetting, key);
    if (secret) throw new InputError(`'${secret}' looks like a secret; secrets are never stored in settings.json`, 'save it with POST /api/env-keys');
    if (key === ORS) checkOrs(value);
    const known = dashboardKey(key);
    if (known) checkValue(key, known, value);
    updates[key] = value;
  }
  const current = readSavedSettings(file);
  if (isMapping(updates[ORS]) && isMapping(current[ORS])) updates[ORS] = { ...current[ORS], ...updates[ORS] };
  return saveSettings(file, updates);
}

function checkOrs(value: unknown): void {
  if (!isMapping(value)) throw new InputError(`${ORS} must be a JSON object`);
  for (const [key, v] of Object.entries(value)) {
    const known = orsKey(key);
    if (known) checkValue(`${ORS}.${key}`, known, v);
  }
}

function checkValue(name: string, k: DashboardKey, v: unknown): void {
  if (v === null || v === '') return;
  const got = JSON.stringify(v)?.slice(0, 80) ?? String(v);
  const fail = (what: string): never => {
    throw new InputError(`${name} must be ${what}, got ${got}`);
  };
  const range = (n: number) => (k.min !== undefined && n < k.min) || (k.max !== undefined && n > k.max);
  const bounds = `${k.min !== undefined ? ` of at least ${k.min}` : ''}${k.max !== undefined ? ` and at most ${k.max}` : ''}`;
  switch (k.kind) {
    case 'int':
      if (typeof v !== 'number' || !Number.isInteger(v) || range(v)) fail(`a whole number${bounds}`);
      return;
    case 'number':
      if (typeof v !== 'number' || !Number.isFinite(v) || range(v)) fail(`a number${bounds}`);
      return;
    case 'boolean':
      if (typeof v !== 'boolean') fail('true or false');
      return;
    case 'strings':
      if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) fail('a list of strings');
      return;
    case 'string':
      if (typeof v !== 'string') fail('a string');
      if (k.choices && !k.choices.includes(v as string)) fail(`one of ${k.choices.join(', ')}`);
  }
}

export type ProfilesView = { profiles: { name: string; values: Readonly<Record<string, string | number>> }[]; selected: string | null };

/** The profiles and the one settings.json selects, if it names one. */
export function profilesView(saved: SavedSettings): ProfilesView {
  const chosen = saved.profile;
  return {
    profiles: PROFILE_NAMES.map((name) => ({ name, values: PROFILES[name] })),
    selected: typeof chosen === 'string' && (PROFILE_NAMES as string[]).includes(chosen) ? chosen : null,
  };
}
