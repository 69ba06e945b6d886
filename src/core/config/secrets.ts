import { mapValues } from '../map-values.ts';
import { type Env, envVar } from './env-vars.ts';
import { isKnownSavedName } from './settings.ts';

/**
 * The one rule for what holds a secret, for variables and settings.json keys alike: a variable
 * the table marks secret, or a name that reads as a key, token, secret or password. A name svc
 * does not know that ends in `key` counts too (a search service's `..._key` from an older
 * settings.json is an API key); `ssh_key`, a known key, is a path. Secrets live in .env only.
 */
export function isSecret(name: string): boolean {
  if (envVar(name)?.secret === true || /api_?key|secret|token|password/i.test(name)) return true;
  return /key$/i.test(name) && envVar(name) === undefined && !isKnownSavedName(name);
}

/**
 * The environment for code svc did not write (a model's commands, an agent-written reproduce.sh):
 * `env` less every secret, plus the variables `granted` to that code whatever their names (their
 * owner meant it to have them).
 */
export function envWithoutSecrets(env: Env, granted: Readonly<Record<string, string>> = {}): Env {
  const kept = Object.entries(env).filter(([name]) => !isSecret(name));
  return { ...Object.fromEntries(kept), ...granted };
}

/** The dotted path of the first secret key at any depth, or undefined. */
export function secretKeyPath(value: unknown, prefix = ''): string | undefined {
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const hit = secretKeyPath(v, `${prefix}[${i}]`);
      if (hit) return hit;
    }
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  for (const [k, v] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (isSecret(k)) return path;
    const hit = secretKeyPath(v, path);
    if (hit) return hit;
  }
  return undefined;
}

/** `value` with every secret key removed, at any depth. */
export function withoutSecretKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => withoutSecretKeys(v)) as T;
  if (value === null || typeof value !== 'object') return value;
  const kept = Object.entries(value).filter(([k]) => !isSecret(k));
  return Object.fromEntries(kept.map(([k, v]) => [k, withoutSecretKeys(v)])) as T;
}

/**
 * `value` with the value of every secret variable in `env` put back as the `${NAME}` reference it
 * was expanded from. A workflow read with `${PROVIDERA_API_KEY}` in it must not hand the key out.
 * Very short values are left alone: they would match ordinary text and protect nothing.
 */
export function maskSecretValues<T>(value: T, env: Env): T {
  const secrets = Object.entries(env)
    .filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].length >= 4 && isSecret(e[0]))
    .sort((a, b) => b[1].length - a[1].length);
  if (secrets.length === 0) return value;
  return mapValues(value, (s) => secrets.reduce((acc, [name, secret]) => acc.split(secret).join(`\${${name}}`), s));
}
