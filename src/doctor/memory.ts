import type { Config } from '../core/config/config.ts';
import { effective } from '../core/config/config.ts';
import type { Env } from '../core/config/env-vars.ts';
import { envValue } from '../core/config/env-vars.ts';
import { withoutCredentials } from '../core/text.ts';
import { MemoryClient } from '../memory/client.ts';
import { memoryHealth } from '../memory/deploy/health.ts';
import { type DoctorRow, row } from './row.ts';

/** The doctor waits less than a run's memory call would. */
const HEALTH_TIMEOUT_MS = 3000;

/**
 * The memory server's health endpoint. Never needed: a run whose server does not answer starts
 * the embedded one, or with SVC_MEMORY_BOOTSTRAP_LOCAL=none carries on without memory.
 */
export async function checkMemory(cfg: Config, env: Env, fetchFn: typeof fetch = fetch): Promise<DoctorRow[]> {
  const url = String(effective(cfg, 'memory_base_url').value);
  const shown = withoutCredentials(url);
  const bootstrap = envValue(env, 'SVC_MEMORY_BOOTSTRAP_LOCAL') ?? 'auto';
  const client = new MemoryClient({ baseUrl: url, apiKey: envValue(env, 'MEMBACKEND_API_KEY'), timeoutMs: HEALTH_TIMEOUT_MS, fetch: fetchFn });
  try {
    const h = await memoryHealth(client, shown);
    return [row('memory', 'server', 'ok', `${shown} answers (${h.server} ${h.version})`, false)];
  } catch (err) {
    const why = (err as Error).message;
    if (bootstrap === 'none') return [row('memory', 'server', 'warn', `${why}; a run carries on without memory (SVC_MEMORY_BOOTSTRAP_LOCAL=none)`, false, 'start it (svc memory start-local) or set MEMBACKEND_BASE_URL to a running server')];
    return [row('memory', 'server', 'warn', `${why}; a run starts the embedded server instead`, false, 'svc memory start-local keeps one running between runs')];
  }
}
