import { join } from 'node:path';
import { InputError } from '../errors.ts';
import { type Config, effective } from './config.ts';
import { dotenvWithUpdates } from './dotenv.ts';
import { KEY_VARIABLE } from './env-vars.ts';
import { writeFileAtomic } from '../atomic.ts';
import { saveSettings } from './saved-settings.ts';
import { savedName } from './settings.ts';

export type SettingsUpdate = { model?: string; partition?: string; cpus?: string; mem_gb?: string; api_key?: string };
export type Change = { what: string; file: string };

/**
 * Save settings the user chose: plain values to settings.json, the API key to the project's .env
 * (never to settings.json). Values are checked before anything is written.
 */
export function updateSettings(cfg: Config, update: SettingsUpdate): Change[] {
  const saved: Record<string, string | number> = {};
  if (update.model !== undefined) saved[savedName('model')] = nonEmpty('model', update.model);
  if (update.partition !== undefined) saved[savedName('partition')] = nonEmpty('partition', update.partition);
  if (update.cpus !== undefined) saved[savedName('cpus')] = positive('cpus', update.cpus, true);
  if (update.mem_gb !== undefined) saved[savedName('mem_gb')] = positive('mem', update.mem_gb, false);
  // everything that can fail is done before the first write
  const key = update.api_key === undefined ? null : apiKeyUpdate(cfg, String(effective(cfg, 'backend').value), nonEmpty('api-key', update.api_key));
  const changes: Change[] = [];
  if (Object.keys(saved).length > 0) {
    saveSettings(cfg.savedPath, saved);
    for (const [k, v] of Object.entries(saved)) changes.push({ what: `${k} = ${v}`, file: cfg.savedPath });
  }
  if (key) changes.push(key.write());
  return changes;
}

/**
 * The API key of `backend`'s provider, checked and ready to go to the project's .env (never to
 * settings.json): `write` writes it, and says which variable it became.
 */
export function apiKeyUpdate(cfg: Config, backend: string, value: string): { variable: string; write: () => Change } {
  const variable = KEY_VARIABLE[backend];
  if (!variable) throw new InputError(`the ${backend} backend takes no API key`, `choose one of ${Object.keys(KEY_VARIABLE).join(', ')} as the backend first`);
  if (/[\r\n]/.test(value)) throw new InputError('an API key is one line');
  const envFile = join(cfg.projectRoot, '.env');
  const text = dotenvWithUpdates(envFile, { [variable]: value });
  return {
    variable,
    write: () => {
      writeFileAtomic(envFile, text, 0o600);
      return { what: `${variable} (value hidden)`, file: envFile };
    },
  };
}

function nonEmpty(flag: string, v: string): string {
  if (v.trim() === '') throw new InputError(`--${flag} needs a value`);
  return v.trim();
}

function positive(flag: string, v: string, whole: boolean): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0 || (whole && !Number.isInteger(n))) {
    throw new InputError(`--${flag} must be a positive ${whole ? 'whole ' : ''}number, got '${v}'`);
  }
  return n;
}
