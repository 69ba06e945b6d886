import { resolve } from 'node:path';
import { binaryDir, checkpointsRoot, homeDir, projectRoot } from '../workspace.ts';
import { type DotenvEntry, loadDotenvChain } from './dotenv.ts';
import type { Env } from './env-vars.ts';
import { isSecret } from './secrets.ts';

/** .env files in the spec's priority order; an earlier file wins for the same key. */
export function dotenvFor(env: Env, cwd: string, checkpointDir?: string): Map<string, DotenvEntry> {
  return loadDotenvChain([checkpointDir, projectRoot(env, cwd), binaryDir(), homeDir(env)].filter((d): d is string => !!d));
}

/** The environment as svc sees it: the process environment over the .env files. */
export function loadEnv(opts: { env?: Env; cwd?: string; checkpointDir?: string } = {}): Env {
  const env = opts.env ?? process.env;
  return mergedEnv(env, dotenvFor(env, opts.cwd ?? process.cwd(), opts.checkpointDir));
}

/** The checkpoints directory in use: a --checkpoints flag, else from SVC_CHECKPOINT_DIR (.env included). */
export function checkpointsDir(flag?: string): string {
  return flag !== undefined ? resolve(flag) : checkpointsRoot(loadEnv());
}

/**
 * The environment with each secret (a variable marked secret, or any name that reads as a key,
 * token, secret or password) replaced by its own `${NAME}` reference. What only shows or checks
 * configuration loads with this: a `${PROVIDERA_API_KEY}` in a workflow then shows as written,
 * and the key can never come back out in an answer or an error message.
 */
export function secretsAsReferences(env: Env): Env {
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, isSecret(k) ? `\${${k}}` : v]));
}

/** The environment with .env values filled in under the real environment. */
export function mergedEnv(env: Env, dotenv: Map<string, DotenvEntry>): Env {
  const out: Record<string, string | undefined> = {};
  for (const [k, e] of dotenv) out[k] = e.value;
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') out[k] = v;
  return out;
}


/** The variables that are set, as a child process's environment takes them. */
export function definedEnv(env: Env): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}
