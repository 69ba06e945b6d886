import { InputError } from '../errors.ts';
import { type Config, effective, resolveSetting } from './config.ts';
import { PROFILE_NAMES, PROFILES } from './profiles.ts';
import { apiKeyUpdate } from './update-settings.ts';
import { readSavedSettings, type SavedSettings, saveSettings, savedValue } from './saved-settings.ts';
import { isSecret, secretKeyPath, withoutSecretKeys } from './secrets.ts';
import { pageSetting, parseSetting, SETTINGS, type Setting, settingRule } from './settings.ts';
import { isMapping, isPresent } from '../values.ts';

/** Where a displayed value comes from: 'saved', 'env NAME', 'profile P', 'workflow' or 'default'. */
export type SettingSource = string;
export type SettingsView = Record<string, unknown> & { _sources: Record<string, SettingSource> };

/** The view's own field: computed on every read, never stored. */
const SOURCES = '_sources';
/** The nested block of the reproducibility stages' keys; `ors.x` names its key x. */
const ORS = 'ors';

/** Only these two are refilled from the workflow when settings.json holds them empty. */
const REFILLED = new Set(['llm_model', 'llm_provider']);

const PAGE = SETTINGS.flatMap((s) => (s.page ?? []).map((name) => ({ name, s })));

/**
 * The dashboard's settings: every key of the page with its value and, in `_sources`, where it
 * comes from. A key settings.json holds shows as saved, even empty (the page shows what is saved),
 * except that an empty llm_model or llm_provider is refilled from the workflow; any other key
 * shows what the run resolves (resolveSetting), so the page never shows a value the run will not
 * use. Unknown saved keys pass through; secret-looking keys are never part of it.
 */
export function settingsView(cfg: Config): SettingsView {
  const saved = withoutSecretKeys(cfg.saved);
  const sources: Record<string, SettingSource> = {};
  const top: Record<string, unknown> = {};
  const ors: Record<string, unknown> = {};
  const orsSaved = saved[ORS];
  const orsIsBlock = orsSaved === undefined || isMapping(orsSaved);
  for (const { name, s } of PAGE) {
    const nested = name.startsWith(`${ORS}.`);
    if (nested && !orsIsBlock) continue;
    const r = shown(cfg, s, name, saved);
    sources[name] = r.origin;
    if (nested) ors[name.slice(ORS.length + 1)] = r.value;
    else top[name] = r.value;
  }
  // a saved ors that is not an object passes through as it is
  top[ORS] = orsIsBlock ? { ...ors, ...unknownKeys(isMapping(orsSaved) ? orsSaved : {}, ors, `${ORS}.`, sources) } : orsSaved;
  if (!orsIsBlock) sources[ORS] = 'saved';
  Object.assign(top, unknownKeys(saved, top, '', sources));
  return { ...top, [SOURCES]: sources };
}

function shown(cfg: Config, s: Setting, name: string, saved: SavedSettings): { value: unknown; origin: SettingSource } {
  const own = savedValue(saved, name);
  if (own !== undefined) {
    const refill = !own && REFILLED.has(name) ? s.workflow?.get(cfg.workflow.workflow) : undefined;
    return isPresent(refill) ? { value: refill, origin: 'workflow' } : { value: own, origin: 'saved' };
  }
  const r = resolveSetting(cfg, s, { lenient: true });
  // a setting that takes another's value when unset (a phase model) shows as unset
  if (r.via !== undefined || r.value === null) return { value: s.type === 'string' ? '' : null, origin: 'default' };
  return { value: r.value, origin: r.origin };
}

/** Saved keys the page does not know, as they are, each sourced 'saved'. */
function unknownKeys(saved: SavedSettings, known: Record<string, unknown>, prefix: string, sources: Record<string, SettingSource>): SavedSettings {
  const out: SavedSettings = {};
  for (const [k, v] of Object.entries(saved)) {
    if (Object.hasOwn(known, k) || k === SOURCES) continue;
    out[k] = v;
    sources[`${prefix}${k}`] = 'saved';
  }
  return out;
}

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

/**
 * Save settings from the dashboard: a JSON object of keys. Known keys must have their type (an
 * empty string or null clears one); secrets are refused at any depth; `_sources`, which the view
 * carries, is not stored. The `ors` block merges with the saved one key by key. Everything is
 * checked before settings.json is written, atomically.
 */
export function saveDashboardSettings(file: string, body: unknown): SavedSettings {
  if (!isMapping(body)) throw new InputError('the body must be a JSON object of settings to save');
  const updates: SavedSettings = {};
  for (const [key, value] of Object.entries(body)) {
    if (key === SOURCES) continue;
    const secret = isSecret(key) ? key : secretKeyPath(value, key);
    if (secret) throw new InputError(`'${secret}' looks like a secret; secrets are never stored in settings.json`, 'save it with POST /api/env-keys');
    if (key === ORS) checkOrs(value);
    const known = pageSetting(key);
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
    const known = pageSetting(`${ORS}.${key}`);
    if (known) checkValue(`${ORS}.${key}`, known, v);
  }
}

/** A value as JSON carries it: of the setting's type (no text for a number) and within its rules. */
function checkValue(name: string, s: Setting, v: unknown): void {
  if (v === null || v === '') return;
  const typed = s.type === 'strings' ? Array.isArray(v) : typeof v === (s.type === 'int' ? 'number' : s.type);
  if (typed && parseSetting(s, v) !== undefined) return;
  const got = JSON.stringify(v)?.slice(0, 80) ?? String(v);
  throw new InputError(`${name} must be ${s.type === 'boolean' ? 'true or false' : settingRule(s)}, got ${got}`);
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
