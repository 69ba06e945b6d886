import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../core/config/env-vars.ts';
import { VISIBILITIES } from '../schema/publish.ts';
import { BackendError, getBackend, publishDryRun } from './backends/index.ts';
import { PUBLISHED_DIR, readManifest } from './curate.ts';
import { MANIFEST_FILE } from './manifest.ts';
import { loadPublishConfig } from './publish-config.ts';
import { PUBLISH_RECORD_FILE } from './status.ts';

/** The backend that copies the bundle into the checkpoint: the only one that sends nothing anywhere. */
export const LOCAL_BACKEND = 'local-tarball';

/** A visibility publish.yaml accepts: staged, public, unlisted, private-token, embargoed-until:YYYY-MM-DD. */
export function isVisibility(v: string): boolean {
  return (VISIBILITIES as readonly string[]).includes(v) || /^embargoed-until:\d{4}-\d{2}-\d{2}$/.test(v);
}

export type PublishPreview = {
  backend: string;
  remote: boolean;
  visibility: 'staged';
  requested_visibility: string;
  dry_run: boolean;
  bundle_sha256: string;
  file_count: number;
  total_size: number;
  files: { path: string; size: number; sha256: string }[];
  excluded_count: number;
  already_published: boolean;
};

/**
 * What a publish would send, from manifest.lock alone (nothing is built, nothing is contacted):
 * the backend (`backend` > publish.yaml's > svc-registry), the visibility it would have (staged)
 * and the one asked for, the bundle digest, its files and their total size.
 */
export function publishPreview(checkpointDir: string, opts: { backend?: string; visibility?: string; env: Env }): PublishPreview {
  const manifest = readManifest(join(checkpointDir, PUBLISHED_DIR, MANIFEST_FILE));
  if (!manifest) throw new BackendError('invalid', `the run has no curated bundle (${PUBLISHED_DIR}/${MANIFEST_FILE})`, 'curate it first');
  const config = loadPublishConfig(checkpointDir);
  const backend = opts.backend ?? config?.backend ?? 'svc-registry';
  getBackend(backend);
  const requested = opts.visibility ?? config?.visibility ?? 'staged';
  if (!isVisibility(requested)) throw new BackendError('invalid', `unknown visibility '${requested.slice(0, 60)}'`, 'use staged, public, unlisted, private-token or embargoed-until:YYYY-MM-DD');
  const files = manifest.files.map((f) => ({ path: f.path, size: f.size, sha256: f.sha256 }));
  return {
    backend,
    remote: backend !== LOCAL_BACKEND,
    visibility: 'staged',
    requested_visibility: requested,
    dry_run: publishDryRun(opts.env, false),
    bundle_sha256: manifest.bundle_sha256,
    file_count: files.length,
    total_size: files.reduce((n, f) => n + f.size, 0),
    files,
    excluded_count: manifest.excluded_count,
    already_published: existsSync(join(checkpointDir, PUBLISH_RECORD_FILE)),
  };
}
