import type { Env } from '../core/config/env-vars.ts';

/**
 * Variables outside the workflow that change what a run asks its models (the multi-agent idea
 * engine's), so a cassette carries them as the run set them and its replay asks the same.
 */
export const REQUEST_SHAPING_ENV = ['SVC_IDEA_MA_REAL', 'SVC_IDEA_MA_LIVE', 'SVC_IDEA_MA_K', 'SVC_IDEA_MA_TEAM_SIZE', 'SVC_IDEA_MA_N_AUTHORS', 'SVC_IDEA_MA_N_PAPERS', 'SVC_IDEA_MA_MAX_TEAMS', 'SVC_IDEA_MA_EMBED_MODEL'] as const;

export function requestShapingEnv(env: Env): Record<string, string> {
  return Object.fromEntries(REQUEST_SHAPING_ENV.flatMap((name) => (env[name] ? [[name, env[name]]] : [])));
}
