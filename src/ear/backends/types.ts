import type { Env } from '../../core/config/env-vars.ts';
import type { ManifestLock } from '../manifest.ts';

export type { Env };

/** What a backend publishes: an already-built, reproducible bundle tarball and its manifest. */
export type PublishInput = {
  /** Path of the bundle tarball (bundle.tar.gz); read, never moved or changed. */
  tarball: string;
  /** SHA-256 (hex) of the tarball bytes. */
  tarballSha256: string;
  manifest: ManifestLock;
  /** The visibility asked for; the first publish is staged whatever is asked (the caller promotes). */
  visibility: string;
  /** true: no network and no file written; the outcome says what would happen. */
  dryRun: boolean;
  checkpointDir: string;
  env: Env;
  /** Backend settings (url, token, bucket, repo...), fed by the caller from publish.yaml / the registries file. */
  settings: Record<string, unknown>;
};

export type PublishOutcome = { ref: string; visibility: string; extra: Record<string, unknown> };

export type PromoteTarget = 'unlisted' | 'public';

export type PublishedRecord = { ref: string; extra: Record<string, unknown> };

export type Backend = {
  name: string;
  publish(i: PublishInput): Promise<PublishOutcome>;
  /**
   * Moves a staged bundle to `target`. Demotion is the caller's to refuse; a backend only promotes.
   * `settings` (optional) are the same settings publish had (tokens are never kept in the record).
   */
  promote(record: PublishedRecord, target: PromoteTarget, env: Env, settings?: Record<string, unknown>): Promise<{ visibility: string; extra: Record<string, unknown> }>;
};
