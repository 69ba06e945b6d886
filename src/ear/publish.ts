import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../core/config/env-vars.ts';
import { writeJsonAtomic } from '../core/atomic.ts';
import { readJsonObject } from '../core/json-object.ts';
import { BackendError, getBackend, publishDryRun, type PromoteTarget } from './backends/index.ts';
import { backendSettings } from './backend-settings.ts';
import { PUBLISHED_DIR, readManifest } from './curate.ts';
import { MANIFEST_FILE } from './manifest.ts';
import { loadPublishConfig } from './publish-config.ts';
import { PUBLISH_RECORD_FILE } from './status.ts';
import { writeBundleTarball } from './tarball.ts';

/** publish_record.json at the checkpoint root: where the bundle went and what became of it. */
export type PublishRecord = {
  backend: string;
  ref: string;
  bundle_sha256: string;
  visibility: string;
  timestamp: string;
  dry_run: boolean;
  extra: Record<string, unknown>;
  promoted_at: string | null;
  promote_failed_at: string | null;
};

export type PublishOptions = { backend?: string; visibility?: string; dryRun?: boolean; env: Env };

/** The bundle tarball a publish builds, inside the checkpoint (never the working directory). */
export const BUNDLE_TARBALL = 'ear_bundle.tar.gz';

/** Visibilities in the order promotion may move them; anything else ranks with unlisted. */
const RANK: Readonly<Record<string, number>> = { staged: 0, unlisted: 1, 'private-token': 1, public: 2 };

/**
 * Publishes the curated bundle (`ear_published/`): builds its reproducible tarball, hands it to the
 * backend (`backend` > publish.yaml's > svc-registry) and writes publish_record.json. The first
 * publish is always staged, whatever visibility is asked (it is kept as `requested_visibility`);
 * SVC_PUBLISH_DRYRUN forces a dry run, which sends nothing and records that it did not.
 */
export async function publishBundle(checkpointDir: string, opts: PublishOptions): Promise<PublishRecord> {
  const manifest = readManifest(join(checkpointDir, PUBLISHED_DIR, MANIFEST_FILE));
  if (!manifest) throw new BackendError('invalid', `${checkpointDir} has no curated bundle (${PUBLISHED_DIR}/${MANIFEST_FILE})`, 'curate it first: svc ear curate');
  const config = loadPublishConfig(checkpointDir);
  const name = opts.backend ?? config?.backend ?? 'svc-registry';
  const backend = getBackend(name);
  const dryRun = publishDryRun(opts.env, opts.dryRun ?? false);
  const tarball = join(checkpointDir, BUNDLE_TARBALL);
  const built = await writeBundleTarball(join(checkpointDir, PUBLISHED_DIR), tarball);
  const settings = backendSettings(name, checkpointDir, opts.env);
  const asked = opts.visibility ?? config?.visibility ?? 'staged';
  const out = await backend.publish({ tarball, tarballSha256: built.sha256, manifest, visibility: asked, dryRun, checkpointDir, env: opts.env, settings });
  const record: PublishRecord = {
    backend: name,
    ref: out.ref,
    bundle_sha256: manifest.bundle_sha256,
    visibility: out.visibility,
    timestamp: new Date().toISOString(),
    dry_run: dryRun,
    extra: { ...out.extra, tarball_sha256: built.sha256, requested_visibility: asked },
    promoted_at: null,
    promote_failed_at: null,
  };
  if (!dryRun || !existsSync(join(checkpointDir, PUBLISH_RECORD_FILE))) writeJsonAtomic(join(checkpointDir, PUBLISH_RECORD_FILE), record);
  if (dryRun) rmSync(tarball, { force: true });
  return record;
}

/**
 * Promotes the published bundle to `target` through the backend that published it. Demotion (to a
 * lower or equal state than it has) is refused before any request. A backend failure is recorded
 * (`promote_failed_at`, `extra.promote_error`) and thrown with its kind.
 */
export async function promoteBundle(checkpointDir: string, target: PromoteTarget, env: Env): Promise<PublishRecord> {
  const file = join(checkpointDir, PUBLISH_RECORD_FILE);
  const record = readJsonObject(file, 'publish the bundle again') as PublishRecord | null;
  if (!record) throw new BackendError('not_found', `${checkpointDir} has no publish record`, 'publish the bundle first: svc ear publish');
  if (target !== 'public' && target !== 'unlisted') throw new BackendError('invalid', `cannot promote to '${String(target)}'`, 'use --target public or unlisted');
  if (record.dry_run) throw new BackendError('invalid', 'the publish record is a dry run: nothing was published to promote', 'publish without --dry-run first');
  const from = RANK[record.visibility] ?? 1;
  if ((RANK[target] ?? 0) <= from) throw new BackendError('conflict', `the bundle is ${record.visibility}: ${target} would not be a promotion, and demotion is refused`, 'promotion goes from staged to unlisted or public, or from unlisted to public');
  const backend = getBackend(record.backend);
  const settings = backendSettings(record.backend, checkpointDir, env);
  try {
    const out = await backend.promote({ ref: record.ref, extra: record.extra }, target, env, settings);
    const ref = typeof out.extra.ref === 'string' ? out.extra.ref : record.ref;
    const next: PublishRecord = { ...record, ref, visibility: out.visibility, extra: { ...record.extra, ...out.extra }, promoted_at: new Date().toISOString(), promote_failed_at: null };
    writeJsonAtomic(file, next);
    return next;
  } catch (err) {
    const failed: PublishRecord = { ...record, promote_failed_at: new Date().toISOString(), extra: { ...record.extra, promote_error: err instanceof Error ? err.message : String(err) } };
    writeJsonAtomic(file, failed);
    throw err;
  }
}
