import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { MANIFEST_FILE } from './manifest.ts';
import { PUBLISHED_DIR, readManifest } from './curate.ts';
import { publishYamlPath } from './publish-config.ts';

export const PUBLISH_RECORD_FILE = 'publish_record.json';

export type EarStatus = {
  checkpoint_id: string;
  publish_configured: boolean;
  curated: boolean;
  ear_published_dir: string | null;
  bundle_sha256: string | null;
  file_count: number | null;
  excluded_count: number | null;
  created_at: string | null;
  publish: Record<string, unknown> | null;
  publish_record: unknown;
  problems: string[];
};

/** What a checkpoint's bundle looks like now: curated or not, its digest and counts, its publish record. */
export function earStatus(checkpointDir: string): EarStatus {
  const problems: string[] = [];
  const published = join(checkpointDir, PUBLISHED_DIR);
  const lockPath = join(published, MANIFEST_FILE);
  const lock = existsSync(lockPath) ? readManifest(lockPath) : null;
  if (existsSync(lockPath) && lock === null) problems.push(`${lockPath} is not a manifest.lock`);
  let record: unknown = null;
  const recordPath = join(checkpointDir, PUBLISH_RECORD_FILE);
  if (existsSync(recordPath)) {
    try {
      record = JSON.parse(readFileSync(recordPath, 'utf8'));
    } catch {
      problems.push(`${recordPath} is not JSON`);
    }
  }
  return {
    checkpoint_id: basename(checkpointDir),
    publish_configured: existsSync(publishYamlPath(checkpointDir)),
    curated: lock !== null,
    ear_published_dir: lock ? published : null,
    bundle_sha256: lock?.bundle_sha256 ?? null,
    file_count: lock ? lock.files.length : null,
    excluded_count: lock?.excluded_count ?? null,
    created_at: lock?.created_at ?? null,
    publish: (lock?.publish as Record<string, unknown> | undefined) ?? null,
    publish_record: record,
    problems,
  };
}
