import { mapValues } from '../map-values.ts';
import type { Env } from './env-vars.ts';

const ENV_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replace `${VAR}` and `${VAR:-default}` in every string of a parsed YAML tree. Done on parsed
 * values, not raw text, so a variable's content can never change the document's structure.
 * An unset or empty variable with no default becomes the empty string. (The workflow loader then
 * converts "8" to 8 where its schema wants a number.)
 */
export function expandEnv<T>(value: T, env: Env): T {
  return mapValues(value, (s) =>
    s.replace(ENV_REF, (_m, name: string, def?: string) => {
      const v = env[name];
      return v !== undefined && v !== '' ? v : (def ?? '');
    }),
  );
}
