import { BackendError, type BackendErrorKind } from './errors.ts';
import { hostingDoi } from './hosting-doi.ts';
import { hostingRelease } from './hosting-release.ts';
import { localTarball } from './local-tarball.ts';
import { objectStore } from './object-store.ts';
import { svcRegistry } from './svc-registry.ts';
import type { Backend, Env } from './types.ts';

export { BackendError, type BackendErrorKind } from './errors.ts';
export type { Backend, PromoteTarget, PublishedRecord, PublishInput, PublishOutcome } from './types.ts';

/** The publish backends by the names publish.yaml and `--backend` use. */
export const BACKENDS: Readonly<Record<string, Backend>> = Object.freeze({
  'svc-registry': svcRegistry,
  'local-tarball': localTarball,
  'object-store': objectStore,
  'hosting-release': hostingRelease,
  'hosting-doi': hostingDoi,
});

export const BACKEND_NAMES = Object.keys(BACKENDS);

/** The backend called `name`; an unknown name is invalid, naming the known ones. */
export function getBackend(name: string): Backend {
  const b = Object.hasOwn(BACKENDS, name) ? BACKENDS[name] : undefined;
  if (!b) throw new BackendError('invalid', `unknown publish backend ${JSON.stringify(name)}`, `use one of ${BACKEND_NAMES.join(', ')}`);
  return b;
}

/** SVC_PUBLISH_DRYRUN (true, 1, yes; any case) forces a dry run whatever was asked. */
export function publishDryRun(env: Env, asked: boolean): boolean {
  return asked || /^(1|true|yes)$/i.test((env.SVC_PUBLISH_DRYRUN ?? '').trim());
}

/** An error as the transform-skill tools and the dashboard return it: one line and a kind. */
export function backendErrorObject(err: unknown): { error: string; kind: BackendErrorKind } {
  if (err instanceof BackendError) return { error: err.hint ? `${err.message} (${err.hint})` : err.message, kind: err.kind };
  const line = err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err);
  return { error: line, kind: 'network' };
}
