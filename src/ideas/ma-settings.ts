import { type Env, envOnOff, envValue, envVar } from '../core/config/env-vars.ts';
import { InputError } from '../core/errors.ts';
import { MA_LIMITS } from '../schema/ma-limits.ts';

/**
 * The embedding model of the literature snapshot when SVC_IDEA_MA_EMBED_MODEL is unset: SPECTER2,
 * trained on citation links between scientific papers, so a paper sits near the papers that cite
 * it; it is what OpenAI-compatible embedding servers (vLLM, text-embeddings-inference) load for
 * scientific documents under this id. A server that does not serve it answers 404 and the
 * built-in loop runs, saying so.
 */
export const DEFAULT_MA_EMBED_MODEL = envVar('SVC_IDEA_MA_EMBED_MODEL')?.default ?? '';

/** The multi-agent engine's settings (SVC_IDEA_MA_*); a bad value is refused before any work. */
export type MaSettings = {
  /** discussion rounds per team */
  k: number;
  teamSize: number;
  nAuthors: number;
  /** papers in the literature snapshot */
  nPapers: number;
  maxTeams: number;
  /** the embedding model's handle, null for none (`none`) */
  embedModel: string | null;
  /** true: a snapshot of this topic (refetched when the cached one is of another); false: any cached snapshot */
  live: boolean;
};

/** The engine's embedding model handle (SVC_IDEA_MA_EMBED_MODEL; `default` is SPECTER2), null for `none`. */
export function maEmbedModel(env: Env): string | null {
  const embed = envValue(env, 'SVC_IDEA_MA_EMBED_MODEL')?.trim() ?? DEFAULT_MA_EMBED_MODEL;
  return embed === '' || embed === 'none' ? null : embed === 'default' ? DEFAULT_MA_EMBED_MODEL : embed;
}

/** The settings from the environment; max_teams defaults to the number of ideas asked for. */
export function maSettings(env: Env, nIdeas: number): MaSettings {
  return {
    k: int(env, 'SVC_IDEA_MA_K', 1, MA_LIMITS.k),
    teamSize: int(env, 'SVC_IDEA_MA_TEAM_SIZE', 1, MA_LIMITS.teamSize),
    nAuthors: int(env, 'SVC_IDEA_MA_N_AUTHORS', 1, MA_LIMITS.nAuthors),
    nPapers: int(env, 'SVC_IDEA_MA_N_PAPERS', 1, MA_LIMITS.nPapers),
    maxTeams: envValue(env, 'SVC_IDEA_MA_MAX_TEAMS') === null ? nIdeas : int(env, 'SVC_IDEA_MA_MAX_TEAMS', 1, MA_LIMITS.maxTeams),
    embedModel: maEmbedModel(env),
    live: envValue(env, 'SVC_IDEA_MA_LIVE') === null || envOnOff(env, 'SVC_IDEA_MA_LIVE'),
  };
}

function int(env: Env, name: string, min: number, max: number): number {
  const raw = (envValue(env, name) ?? '').trim();
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) throw new InputError(`${name} must be an integer from ${min} to ${max}, got '${raw}'`, `set ${name} within that range, or unset it for the default`);
  return n;
}
