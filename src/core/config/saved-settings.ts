import { existsSync, readFileSync } from 'node:fs';
import { writeJsonAtomic } from '../atomic.ts';
import { InputError } from '../errors.ts';

export type SavedSettings = Record<string, unknown>;

/** Keys that would hold a secret; they belong in .env and are never written to settings.json. */
export function isSecretKey(key: string): boolean {
  return /api_?key|secret|token|password/i.test(key);
}

export function readSavedSettings(file: string): SavedSettings {
  if (!existsSync(file)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new InputError(`${file} is not valid JSON: ${(err as Error).message}`, 'fix or remove the file');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new InputError(`${file} must hold a JSON object`, 'fix or remove the file');
  }
  return parsed as SavedSettings;
}

/** Merge `updates` into settings.json (atomically); secrets are refused, never stored. */
export function saveSettings(file: string, updates: SavedSettings): SavedSettings {
  const secret = Object.keys(updates).find(isSecretKey);
  if (secret) throw new InputError(`'${secret}' looks like a secret; secrets go to .env, not settings.json`);
  const next = { ...readSavedSettings(file), ...updates };
  writeJsonAtomic(file, next);
  return next;
}
