import { existsSync } from 'node:fs';
import { readJsonObject } from '../core/json-object.ts';
import { basename, join } from 'node:path';
import { MANIFEST_FILE } from './manifest.ts';
import { CURATE_STATUS_FILE, PUBLISHED_DIR, readManifest } from './curate.ts';
import { publishYamlPath } from './publish-config.ts';

export const PUBLISH_RECORD_FILE = 'publish_record.json';

export type EarStatus = {
  /** the run's id as the dashboard names it (GET /api/ear/<run_id>); the same as checkpoint_id */
  run_id: string;
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
  /** the last curation's ear_curate.status.json */
  curate_status: unknown;
  problems: string[];
};

/**
 * What a checkpoint's bundle looks like now: curated or not, its digest and counts, its publish
 * record and last curation. `svc ear status --json` and GET /api/ear/<run_id> answer this.
 */
export function earStatus(checkpointDir: string): EarStatus {
  const problems: string[] = [];
  const published = join(checkpointDir, PUBLISHED_DIR);
  const lockPath = join(published, MANIFEST_FILE);
  const lock = existsSync(lockPath) ? readManifest(lockPath) : null;
  if (existsSync(lockPath) && lock === null) problems.push(`${lockPath} is not a manifest.lock`);
  const record = jsonFile(join(checkpointDir, PUBLISH_RECORD_FILE), problems);
  const curateStatus = jsonFile(join(checkpointDir, CURATE_STATUS_FILE), problems);
  return {
    run_id: basename(checkpointDir),
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
    curate_status: curateStatus,
    problems,
  };
}

/** A JSON object file's content; null when absent, and a problem named when it is not one. */
function jsonFile(path: string, problems: string[]): unknown {
  try {
    return readJsonObject(path);
  } catch (err) {
    problems.push((err as Error).message);
    return null;
  }
}
