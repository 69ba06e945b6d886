// The answers of /api/ear/<run_id> and /api/publish/<run_id>/... as the bundle panel reads them.

/** A publish_record.json: where the bundle went and what became of it. */
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

/** GET /api/ear/<run_id> */
export type EarStatus = {
  run_id: string;
  publish_configured: boolean;
  curated: boolean;
  bundle_sha256: string | null;
  file_count: number | null;
  excluded_count: number | null;
  created_at: string | null;
  /** the publish settings manifest.lock recorded at curation */
  publish: Record<string, unknown> | null;
  publish_record: PublishRecord | null;
  problems: string[];
};

/** GET /api/ear/<run_id>/publish-yaml: the file's text, or the default when there is none. */
export type PublishYamlView = { run_id: string; exists: boolean; yaml: string; error: string | null };

/** POST /api/ear/<run_id>/curate */
export type CurateAnswer =
  | { skipped: true; reason: string }
  | { skipped: false; bundle_sha256: string; file_count: number; excluded_count: number };

/** GET /api/publish/settings (only what the panel uses) */
export type PublishSettings = { backends: string[] };

export type BundleFile = { path: string; size: number; sha256: string };

/** GET /api/publish/<run_id>/preview */
export type PublishPreview = {
  backend: string;
  /** false only for local-tarball, which copies the bundle into the checkpoint */
  remote: boolean;
  visibility: 'staged';
  requested_visibility: string;
  dry_run: boolean;
  bundle_sha256: string;
  file_count: number;
  total_size: number;
  files: BundleFile[];
  excluded_count: number;
  already_published: boolean;
};

/** POST /api/publish/<run_id> and /promote */
export type RecordAnswer = { run_id: string; record: PublishRecord };

export type PromoteTarget = 'unlisted' | 'public';
