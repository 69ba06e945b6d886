import { loadConfig } from '../core/config/config.ts';
import type { Env } from '../core/config/env-vars.ts';
import { isMapping } from '../core/values.ts';
import { loadRegistries } from '../registry/registries.ts';

/**
 * What a backend needs besides the bundle: the block of that backend's name in the `publish`
 * section of the workspace settings.json (repo, bucket, creators... never a token: those are read
 * from the environment), and for svc-registry the first registry of the registries file with its
 * token (else the backend reads SVC_REGISTRY_URL and SVC_REGISTRY_TOKEN itself).
 */
export function backendSettings(backend: string, checkpointDir: string, env: Env): Record<string, unknown> {
  const saved = loadConfig({ env, checkpointDir }).saved.publish;
  const block = isMapping(saved) && isMapping(saved[backend]) ? { ...(saved[backend] as Record<string, unknown>) } : {};
  if (backend !== 'svc-registry') return block;
  const [first] = loadRegistries(env, { checkpointDir });
  return first ? { ...block, url: first.url, token: first.token, name: first.name } : block;
}
