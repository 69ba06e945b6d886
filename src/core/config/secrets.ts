import { mapValues } from '../map-values.ts';
import { type Env, envVar } from './env-vars.ts';
import { isSecretKey } from './saved-settings.ts';

export type KeyTest = (key: string) => boolean;

/** The dotted path of the first key at any depth that `isSecret` flags, or undefined. */
export function secretKeyPath(value: unknown, isSecret: KeyTest, prefix = ''): string | undefined {
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const hit = secretKeyPath(v, isSecret, `${prefix}[${i}]`);
      if (hit) return hit;
    }
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  for (const [k, v] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (isSecret(k)) return path;
    const hit = secretKeyPath(v, isSecret, path);
    if (hit) return hit;
  }
  return undefined;
}

/** `value` with every key that `isSecret` flags removed, at any depth. */
export function withoutSecretKeys<T>(value: T, isSecret: KeyTest): T {
  if (Array.isArray(value)) return value.map((v) => withoutSecretKeys(v, isSecret)) as T;
  if (value === null || typeof value !== 'object') return value;
  const kept = Object.entries(value).filter(([k]) => !isSecret(k));
  return Object.fromEntries(kept.map(([k, v]) => [k, withoutSecretKeys(v, isSecret)])) as T;
}

/**
 * `value` with the value of every secret variable in `env` put back as the `${NAME}` reference it
 * was expanded from. A workflow read with `${PROVIDERA_API_KEY}` in it must not hand the key out.
 * Very short values are left alone: they would match ordinary text and protect nothing.
 */
export function maskSecretValues<T>(value: T, env: Env): T {
  const secrets = Object.entries(env)
    .filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].length >= 4 && (envVar(e[0])?.secret === true || isSecretKey(e[0])))
    .sort((a, b) => b[1].length - a[1].length);
  if (secrets.length === 0) return value;
  return mapValues(value, (s) => secrets.reduce((acc, [name, secret]) => acc.split(secret).join(`\${${name}}`), s));
}
