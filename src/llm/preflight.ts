import type { Config } from '../core/config/config.ts';
import type { Env } from '../core/config/env-vars.ts';
import { ModelUnreachableError } from './errors.ts';
import { DEFAULT_BASE, describeFailure } from './failures.ts';
import { apiKey } from './providers.ts';
import { type ModelRole, modelFor } from './route.ts';

/** How long the address of a backend may take to accept a connection before the run starts anyway. */
const PROBE_MS = 5000;

/**
 * Before a run creates anything: each role's backend has its key, and something listens at its
 * address (any HTTP answer will do). A missing key or nothing listening is the one-line error a
 * model call would give, at once; a slow answer is left to the calls themselves. Replay needs
 * neither.
 */
export async function checkModelsReachable(cfg: Config, env: Env, roles: readonly ModelRole[], probe: typeof fetch = fetch): Promise<void> {
  const probed = new Set<string>();
  for (const role of roles) {
    const choice = modelFor(role, cfg);
    if (choice.backend === 'replay') continue;
    apiKey(choice, env);
    const base = choice.baseUrl ?? DEFAULT_BASE[choice.backend];
    if (!base || probed.has(base)) continue;
    probed.add(base);
    try {
      await probe(base, { signal: AbortSignal.timeout(PROBE_MS), redirect: 'manual' });
    } catch (err) {
      const failure = describeFailure(err, { choice, attempts: 1, timeoutS: null, key: null });
      if (failure instanceof ModelUnreachableError) throw failure;
    }
  }
}
