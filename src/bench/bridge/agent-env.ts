/**
 * What the replicator agent's commands are given besides this process's environment (bridge rule
 * 4): the variables of its env file and the caller's HF_TOKEN. The file is `agent_env_path`, else
 * SVC_AGENT_ENV_PATH, else ~/.svc/agent.env; a file named by either of the first two must exist,
 * the default one may not.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDotenv } from '../../core/config/dotenv.ts';
import { type Env, envValue } from '../../core/config/env-vars.ts';
import { NotFoundError } from '../../core/errors.ts';
import { isFileAt } from '../../core/paths.ts';
import { printable } from '../../core/text.ts';

/** The default agent env file, under the home directory. */
export const DEFAULT_AGENT_ENV = join('.svc', 'agent.env');
/** Forwarded from the caller to the agent: the models and data sets a reproduction downloads need it. */
const FORWARDED = ['HF_TOKEN'] as const;

export type AgentEnv = { vars: Record<string, string>; file: string | null };

export function agentEnvironment(agentEnvPath: string | undefined, env: Env): AgentEnv {
  const file = agentEnvFile(agentEnvPath, env);
  const vars: Record<string, string> = {};
  if (file !== null) for (const [k, v] of parseDotenv(readFileSync(file, 'utf8'), file)) vars[k] = v;
  for (const name of FORWARDED) {
    const value = envValue(env, name);
    // the file's own value wins: it is the one meant for the agent
    if (value !== null && vars[name] === undefined) vars[name] = value;
  }
  return { vars, file };
}

function agentEnvFile(given: string | undefined, env: Env): string | null {
  const named = given?.trim() ? { path: given.trim(), what: 'agent_env_path' } : envValue(env, 'SVC_AGENT_ENV_PATH') ? { path: envValue(env, 'SVC_AGENT_ENV_PATH') as string, what: 'SVC_AGENT_ENV_PATH' } : null;
  if (named) {
    if (!isFileAt(named.path)) throw new NotFoundError(`${named.what} ${printable(named.path)} is not a file`, 'give the agent\'s env file (KEY=VALUE lines), or leave it unset');
    return named.path;
  }
  const home = envValue(env, 'HOME');
  const fallback = home ? join(home, DEFAULT_AGENT_ENV) : null;
  return fallback !== null && isFileAt(fallback) ? fallback : null;
}
