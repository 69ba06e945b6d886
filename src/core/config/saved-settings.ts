import { existsSync, readFileSync } from 'node:fs';
import { writeJsonAtomic } from '../atomic.ts';
import { InputError } from '../errors.ts';
import { isMapping } from '../values.ts';
import { isSecret } from './secrets.ts';

export type SavedSettings = Record<string, unknown>;

/** A saved value by its name; `block.name` is a key of a nested block (the dashboard's `ors`). */
export function savedValue(saved: SavedSettings, name: string): unknown {
  const dot = name.indexOf('.');
  if (dot < 0) return saved[name];
  const block = saved[name.slice(0, dot)];
  return isMapping(block) ? block[name.slice(dot + 1)] : undefined;
}

export function readSavedSettings(file: string): SavedSettings {
  if (!existsSync(file)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new InputError(`${file} is not valid JSON: ${(err as Error).message}`, 'fix or remove the file');
  }
  if (!isMapping(parsed)) throw new InputError(`${file} must hold a JSON object`, 'fix or remove the file');
  return parsed as SavedSettings;
}

/** Merge `updates` into settings.json (atomically); secrets are refused, never stored. */
export function saveSettings(file: string, updates: SavedSettings): SavedSettings {
  const secret = Object.keys(updates).find(isSecret);
  if (secret) throw new InputError(`'${secret}' looks like a secret; secrets go to .env, not settings.json`);
  const next = { ...readSavedSettings(file), ...updates };
  writeJsonAtomic(file, next);
  return next;
}
