import { type Env, envOnOff, envValue } from '../core/config/env-vars.ts';

/** Why the real multi-agent engine cannot run here: this binary does not carry it. */
export const MA_ENGINE_MISSING = 'SVC_IDEA_MA_REAL is on but the real multi-agent engine is not included in this build; the built-in discussion loop ran instead';

/**
 * Which idea engine runs and what idea.json records: `reimpl` when the built-in loop was asked
 * for, `reimpl: <reason>` when the real engine was asked for and the built-in loop stood in.
 */
export function ideaEngine(env: Env): { status: string; fallback: string | null } {
  const wantsReal = envValue(env, 'SVC_IDEA_MA_REAL') !== null && envOnOff(env, 'SVC_IDEA_MA_REAL');
  return wantsReal ? { status: `reimpl: ${MA_ENGINE_MISSING}`, fallback: MA_ENGINE_MISSING } : { status: 'reimpl', fallback: null };
}
