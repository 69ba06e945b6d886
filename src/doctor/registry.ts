import type { Config } from '../core/config/config.ts';
import type { Env } from '../core/config/env-vars.ts';
import { envValue } from '../core/config/env-vars.ts';
import { withoutCredentials } from '../core/text.ts';
import { loadRegistries } from '../registry/registries.ts';
import { registryNeeded } from './needs.ts';
import { type DoctorRow, row } from './row.ts';

const AREA = 'registry';
const HEALTH_TIMEOUT_MS = 3000;

/**
 * The registry a publish would use (the registries file's first entry, else SVC_REGISTRY_URL) and
 * its token; needed only when a failed publish would fail the run (registryNeeded).
 */
export async function checkRegistry(cfg: Config, env: Env, fetchFn: typeof fetch = fetch): Promise<DoctorRow[]> {
  const needed = registryNeeded(cfg.workflow.workflow, env);
  const notes: string[] = [];
  const [first] = loadRegistries(env, { warn: (line) => notes.push(line) });
  const url = first?.url ?? envValue(env, 'SVC_REGISTRY_URL');
  const token = first?.token ?? envValue(env, 'SVC_REGISTRY_TOKEN');
  if (url === null) {
    const status = needed ? 'fail' : 'skip';
    return [row(AREA, 'url', status, `no registry configured${needed ? ', and a publish stage sends bundles to one' : ''}`, needed, needed ? 'add it to .svc/registries.yaml or set SVC_REGISTRY_URL' : undefined)];
  }
  const shown = withoutCredentials(url);
  const from = first ? `registries file entry ${first.name}` : 'SVC_REGISTRY_URL';
  const rows: DoctorRow[] = [];
  try {
    const res = await fetchFn(`${url.replace(/\/+$/, '')}/healthz`, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS), redirect: 'manual' });
    await res.body?.cancel().catch(() => {});
    if (res.ok) rows.push(row(AREA, 'url', notes.length > 0 ? 'warn' : 'ok', `${shown} answers (${from})${notes.length > 0 ? `; ${notes.join('; ')}` : ''}`, needed));
    else rows.push(row(AREA, 'url', needed ? 'fail' : 'warn', `${shown} answered ${res.status} to /healthz (${from})`, needed, 'check that the URL is an svc registry (svc registry serve)'));
  } catch {
    rows.push(row(AREA, 'url', needed ? 'fail' : 'warn', `${shown} is not reachable (${from})`, needed, 'start it (svc registry serve) or fix the URL'));
  }
  if (token) rows.push(row(AREA, 'token', 'ok', `set (${first?.token ? from : 'SVC_REGISTRY_TOKEN'})`, needed));
  else rows.push(row(AREA, 'token', needed ? 'fail' : 'warn', 'no token: uploads are refused', needed, 'svc registry token issue <user> on the registry, then set SVC_REGISTRY_TOKEN or the entry\'s token'));
  return rows;
}
