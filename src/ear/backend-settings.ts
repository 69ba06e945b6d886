import type { Env } from '../core/config/env-vars.ts';
import { loadRegistries } from '../registry/registries.ts';
import { loadPublishConfig } from './publish-config.ts';

/**
 * What a backend needs besides the bundle: for svc-registry the first registry of the registries
 * file (with its token), else SVC_REGISTRY_URL/SVC_REGISTRY_TOKEN, which the backend reads itself;
 * for the others the keys of publish.yaml's `settings` block where it has one. Tokens never go to
 * the publish record.
 */
export function backendSettings(backend: string, checkpointDir: string, env: Env): Record<string, unknown> {
  const fromYaml = (loadPublishConfig(checkpointDir) as { settings?: Record<string, unknown> } | null)?.settings ?? {};
  if (backend !== 'svc-registry') return { ...fromYaml };
  const [first] = loadRegistries(env, { checkpointDir });
  return first ? { ...fromYaml, url: first.url, token: first.token, name: first.name } : { ...fromYaml };
}
