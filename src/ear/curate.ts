import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { writeFileAtomic, writeJsonAtomic } from '../core/atomic.ts';
import { loadEnv } from '../core/config/environment.ts';
import { loadWorkflow } from '../core/config/workflow.ts';
import { InputError, SvcError, TooLargeError } from '../core/errors.ts';
import { CopyError, copyAllHashed } from './hash-copy.ts';
import { ensureLicense, LICENSE_FILE } from './license.ts';
import { bundleDigest, MANIFEST_FILE, type ManifestFile, type ManifestLock, manifestText } from './manifest.ts';
import { loadPublishConfig, manifestPublish, publishYamlPath } from './publish-config.ts';
import { selectFiles } from './select.ts';
import { swapIn, tempDirFor } from './swap-dir.ts';
import { canonicalJson } from '../llm/cassette.ts';
import { parseLine } from '../core/json-object.ts';
import { readTextOrNull } from '../core/paths.ts';

export const EAR_DIR = 'ear';
export const PUBLISHED_DIR = 'ear_published';
export const CURATE_STATUS_FILE = 'ear_curate.status.json';

export type CurateResult = {
  ear_published_dir: string;
  manifest_path: string;
  bundle_sha256: string;
  files?: ManifestFile[];
  file_count: number;
  excluded_count: number;
  skipped: false;
};
export type CurateOptions = {
  showFiles?: boolean;
  /** SOURCE_DATE_EPOCH is read from here (default process.env) */
  env?: Record<string, string | undefined>;
};
export type CurateSkipped = { skipped: true; reason: string };

/**
 * Curate `<checkpoint>/ear/` into `<checkpoint>/ear_published/` under `ear/publish.yaml`: the kept
 * files are copied and hashed (streamed), manifest.lock is written beside them, and the new
 * directory replaces the old one only once complete, so a failure leaves the previous bundle as
 * it was. Without a publish configuration nothing is written and the result says why.
 */
export async function curateBundle(checkpointDir: string, opts: CurateOptions = {}): Promise<CurateResult | CurateSkipped> {
  const earDir = join(checkpointDir, EAR_DIR);
  if (!existsSync(earDir)) return { skipped: true, reason: `no ${EAR_DIR}/ directory in ${checkpointDir}` };
  if (!statSync(earDir).isDirectory()) throw new InputError(`${earDir} is not a directory`);
  const config = loadPublishConfig(checkpointDir);
  if (config === null) return { skipped: true, reason: `no publish configuration (${publishYamlPath(checkpointDir)})` };
  const publish = manifestPublish(config);
  const env = opts.env ?? process.env;
  const now = createdAt(env);

  if (config.license) ensureLicense(earDir, config.license, Number(now.slice(0, 4)), authorName(checkpointDir));
  const { kept, excluded_count } = selectFiles(earDir, {
    include: config.include,
    exclude: config.exclude ?? [],
    alwaysKeep: config.license ? [LICENSE_FILE] : [],
  });
  const limit = publish.max_file_mb * 1024 * 1024;
  const big = kept.find((f) => f.size > limit);
  if (big) {
    throw new TooLargeError(`${EAR_DIR}/${big.path} is ${(big.size / 1048576).toFixed(1)} MB, over max_file_mb ${publish.max_file_mb}`, 'raise max_file_mb in publish.yaml or exclude the file');
  }

  const target = join(checkpointDir, PUBLISHED_DIR);
  const tmp = tempDirFor(checkpointDir, PUBLISHED_DIR);
  let files: ManifestFile[];
  let manifest: ManifestLock;
  try {
    mkdirSync(tmp, { mode: 0o755 });
    for (const d of new Set(kept.map((f) => dirname(f.path)))) if (d !== '.') mkdirSync(join(tmp, ...d.split('/')), { recursive: true, mode: 0o755 });
    const hashed = await copyAllHashed(kept.map((f) => ({ from: f.source, to: join(tmp, ...f.path.split('/')) }))).catch((err) => {
      if (!(err instanceof CopyError)) throw err;
      throw new SvcError(`could not copy ${EAR_DIR}/${kept[err.index]?.path} into ${PUBLISHED_DIR}/: ${err.reason}`, `the previous ${PUBLISHED_DIR}/ is unchanged`);
    });
    files = kept.map((f, i) => {
      const { size, sha256 } = hashed[i] as (typeof hashed)[number];
      if (size > limit) throw new TooLargeError(`${EAR_DIR}/${f.path} grew to ${(size / 1048576).toFixed(1)} MB while curating, over max_file_mb ${publish.max_file_mb}`);
      return { path: f.path, size, sha256 };
    });
    const bundle_sha256 = bundleDigest(files);
    const previous = readManifest(join(target, MANIFEST_FILE));
    manifest = {
      version: 1,
      checkpoint_id: basename(checkpointDir),
      // a re-curation of the same files under the same settings keeps the bundle byte for byte
      created_at: previous && previous.bundle_sha256 === bundle_sha256 && canonicalJson(previous.publish) === canonicalJson(publish) && previous.excluded_count === excluded_count ? previous.created_at : now,
      publish,
      files,
      excluded_count,
      bundle_sha256,
    };
    writeFileAtomic(join(tmp, MANIFEST_FILE), manifestText(manifest));
    swapIn(tmp, target);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
  const result: CurateResult = {
    ear_published_dir: target,
    manifest_path: join(target, MANIFEST_FILE),
    bundle_sha256: manifest.bundle_sha256,
    ...(opts.showFiles ? { files } : {}),
    file_count: files.length,
    excluded_count,
    skipped: false,
  };
  writeJsonAtomic(join(checkpointDir, CURATE_STATUS_FILE), {
    status: 'curated',
    curated_at: manifest.created_at,
    ear_published_dir: target,
    manifest_path: result.manifest_path,
    bundle_sha256: manifest.bundle_sha256,
    file_count: files.length,
    excluded_count,
  });
  return result;
}

export function readManifest(path: string): ManifestLock | null {
  const m = parseLine(readTextOrNull(path) ?? '');
  return m && Array.isArray(m.files) ? (m as ManifestLock) : null;
}

/** SOURCE_DATE_EPOCH (seconds), the reproducible-builds convention, else now. */
function createdAt(env: Record<string, string | undefined>): string {
  const epoch = env.SOURCE_DATE_EPOCH;
  if (epoch !== undefined && epoch !== '') {
    if (!/^\d+$/.test(epoch)) throw new InputError(`SOURCE_DATE_EPOCH must be whole seconds since 1970, got '${epoch}'`);
    return new Date(Number(epoch) * 1000).toISOString();
  }
  return new Date().toISOString();
}

function authorName(checkpointDir: string): string {
  try {
    return loadWorkflow({ checkpointDir, env: loadEnv({ checkpointDir }) }).workflow.author_name ?? '';
  } catch {
    return '';
  }
}
