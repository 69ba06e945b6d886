import { InputError } from '../errors.ts';
import { type DotenvEntry, updateDotenv } from './dotenv.ts';
import { ENV_VARS, type Env, envVar } from './env-vars.ts';
import { isSecret } from './secrets.ts';
import { isMapping } from '../values.ts';

export type EnvKeyEntry = {
  name: string;
  meaning: string;
  secret: boolean;
  set: boolean;
  /** 'environment', the .env file that sets it, or null when unset */
  source: string | null;
};

const NAME = /^[A-Z_][A-Z0-9_]*$/;

/**
 * Names the dashboard may write: the variables svc reads, and credentials (of services svc does
 * not list itself too, a scholarly API key, say). Anything else could change how every program
 * started from this project behaves (PATH, LD_PRELOAD, PERL5OPT).
 */
function writable(name: string): boolean {
  return envVar(name) !== undefined || CREDENTIAL.test(name);
}

/** A credential's name by its ending; not isSecret, which also masks names that merely contain `token` (TOKENIZERS_PARALLELISM). */
const CREDENTIAL = /_(API_KEY|KEY|TOKEN|SECRET|PASSWORD)$/;

/**
 * Every variable svc reads, and any other name found in the .env files, with whether it is set
 * and where. Names only: no value ever leaves this function.
 */
export function listEnvKeys(env: Env, dotenv: ReadonlyMap<string, DotenvEntry>): EnvKeyEntry[] {
  const known = ENV_VARS.map((e) => e.name);
  const extra = [...dotenv.keys()].filter((n) => !envVar(n)).sort();
  return [...known, ...extra].map((name) => {
    const source = env[name] ? 'environment' : dotenv.get(name)?.value ? (dotenv.get(name)?.file ?? null) : null;
    return { name, meaning: envVar(name)?.meaning ?? '', secret: isSecret(name), set: source !== null, source };
  });
}

/**
 * Save `{NAME: value}` pairs (or `{keys: {...}}`) to a .env file, keeping its other lines and
 * comments. Names and values are checked first, so a bad one writes nothing; error messages name
 * the variable, never its value. Returns the names saved.
 */
/**
 * The NAME: value pairs a body carries: the body itself, its `keys` object when that is all it
 * holds, or the one pair of `{key, value}` (the ARI web UI's shape; variable names are upper case,
 * so `key` and `value` cannot be names themselves).
 */
export function envKeyPairs(body: unknown): unknown {
  if (!isMapping(body)) return body;
  const keys = Object.keys(body);
  if (keys.length === 1 && isMapping(body.keys)) return body.keys;
  if (keys.length === 2 && typeof body.key === 'string' && Object.hasOwn(body, 'value')) return { [body.key]: body.value };
  return body;
}

export function saveEnvKeys(file: string, body: unknown): string[] {
  const pairs = envKeyPairs(body);
  if (!isMapping(pairs)) throw new InputError('the body must be a JSON object of NAME: value pairs (or {"keys": {...}})');
  const names = Object.keys(pairs);
  if (names.length === 0) throw new InputError('nothing to save: the body names no variable');
  const updates: Record<string, string> = {};
  for (const name of names) {
    if (!NAME.test(name)) throw new InputError(`'${name.slice(0, 80)}' is not a variable name`, 'use capital letters, digits and _, not starting with a digit');
    if (!writable(name)) throw new InputError(`${name} is not a variable svc reads or a credential`, 'see GET /api/env-keys for the names; credentials end in _API_KEY, _KEY, _TOKEN, _SECRET or _PASSWORD');
    const value = pairs[name];
    if (typeof value !== 'string') throw new InputError(`the value of ${name} must be a string`);
    if (/[\r\n]/.test(value)) throw new InputError(`the value of ${name} spans lines; a .env value is one line`);
    updates[name] = value;
  }
  updateDotenv(file, updates);
  return names;
}

