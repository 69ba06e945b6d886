import { join } from 'node:path';
import { type Env, envValue } from '../core/config/env-vars.ts';
import { isFileAt } from '../core/paths.ts';
import { CASSETTE_FILE, readCassetteHeader } from '../llm/cassette.ts';

/**
 * Variables outside the workflow that change what a run asks its models (the multi-agent idea
 * engine's, and memory's embedding model, whose search results go into prompts), so a cassette
 * carries them as the run set them and its replay asks the same.
 */
export const REQUEST_SHAPING_ENV = ['MEMBACKEND_EMBEDDING_CONFIG', 'SVC_IDEA_MA_REAL', 'SVC_IDEA_MA_LIVE', 'SVC_IDEA_MA_K', 'SVC_IDEA_MA_TEAM_SIZE', 'SVC_IDEA_MA_N_AUTHORS', 'SVC_IDEA_MA_N_PAPERS', 'SVC_IDEA_MA_MAX_TEAMS', 'SVC_IDEA_MA_EMBED_MODEL'] as const;

export function requestShapingEnv(env: Env): Record<string, string> {
  return Object.fromEntries(REQUEST_SHAPING_ENV.flatMap((name) => (env[name] ? [[name, env[name]]] : [])));
}

/**
 * The run's environment with the request-shaping variables of the cassette it replays (or, when
 * it records, of its own cassette, which a resume finds there), where the caller does not set
 * them: a replay, and a resume of a run killed before it made its ideas, ask what was recorded.
 */
export function withRecordedEnv(env: Env, checkpointDir: string): Env {
  const replaying = envValue(env, 'SVC_BACKEND') === 'replay';
  const cassette = replaying ? envValue(env, 'SVC_REPLAY_CASSETTE') : join(checkpointDir, CASSETTE_FILE);
  // no cassette yet (a new recording), or none where a replay says: the replay itself says so
  const recorded = cassette && isFileAt(cassette) ? (readCassetteHeader(cassette)?.env ?? {}) : {};
  const out: Record<string, string | undefined> = { ...env };
  for (const name of REQUEST_SHAPING_ENV) if (!out[name] && recorded[name]) out[name] = recorded[name];
  return out;
}
