import { join } from 'node:path';
import { InputError } from '../errors.ts';
import { type Config, effective } from './config.ts';
import { dotenvWithUpdates } from './dotenv.ts';
import { writeFileAtomic } from '../atomic.ts';
import { saveSettings } from './saved-settings.ts';

/** Backends that take an API key, and the variable that holds it. */
export const API_KEY_VARS: Readonly<Record<string, string>> = { providera: 'PROVIDERA_API_KEY', providerb: 'PROVIDERB_API_KEY' };

export type SettingsUpdate = { model?: string; partition?: string; cpus?: string; mem_gb?: string; api_key?: string };
export type Change = { what: string; file: string };

/**
 * Save settings the user chose: plain values to settings.json, the API key to the project's .env
 * (never to settings.json). Values are checked before anything is written.
 */
export function updateSettings(cfg: Config, update: SettingsUpdate): Change[] {
  const saved: Record<string, string | number> = {};
  if (update.model !== undefined) saved.llm_model = nonEmpty('model', update.model);
  if (update.partition !== undefined) saved.slurm_partition = nonEmpty('partition', update.partition);
  if (update.cpus !== undefined) saved.slurm_cpus = positive('cpus', update.cpus, true);
  if (update.mem_gb !== undefined) saved.slurm_memory_gb = positive('mem', update.mem_gb, false);
  let keyVar: string | undefined;
  if (update.api_key !== undefined) {
    const backend = String(effective(cfg, 'backend').value);
    keyVar = API_KEY_VARS[backend];
    if (!keyVar) {
      throw new InputError(`the ${backend} backend takes no API key`, `set SVC_BACKEND to one of ${Object.keys(API_KEY_VARS).join(', ')} first`);
    }
    nonEmpty('api-key', update.api_key);
  }
  // everything that can fail is done before the first write
  const envFile = join(cfg.projectRoot, '.env');
  const envText = keyVar && update.api_key !== undefined ? dotenvWithUpdates(envFile, { [keyVar]: update.api_key }) : undefined;
  const changes: Change[] = [];
  if (Object.keys(saved).length > 0) {
    saveSettings(cfg.savedPath, saved);
    for (const [k, v] of Object.entries(saved)) changes.push({ what: `${k} = ${v}`, file: cfg.savedPath });
  }
  if (envText !== undefined) {
    writeFileAtomic(envFile, envText, 0o600);
    changes.push({ what: `${keyVar} (value hidden)`, file: envFile });
  }
  return changes;
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
