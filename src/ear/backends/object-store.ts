import { S3Client } from 'bun';
import { BackendError, type BackendErrorKind, kindOfStatus, request, scrub, short16, str } from './errors.ts';
import { manifestBytes } from './manifest-bytes.ts';
import { awsEncode, signS3, type SigV4Credentials } from './sigv4.ts';
import { tarballSize } from './tarball-file.ts';
import type { Backend, Env, PublishInput, PublishOutcome, PublishedRecord, PromoteTarget } from './types.ts';

/** SigV4 presigned URLs live at most seven days: the unlisted link is renewed by promoting again. */
export const UNLISTED_URL_SECONDS = 7 * 24 * 3600;

/** Multipart upload: 5 MiB parts (the S3 minimum), at most 2 in flight (bounded memory for any bundle size). */
const PART_SIZE = 5 * 2 ** 20;
const PART_QUEUE = 2;

export type ObjectStoreConfig = { bucket: string; endpoint: string; region: string; prefix: string; creds: SigV4Credentials | null };

/**
 * Where and as whom: settings (bucket, endpoint, region, prefix) first, then SVC_OBJECT_STORE_*,
 * then AWS_*. Credentials come from the environment only (SVC_OBJECT_STORE_ACCESS_KEY_ID /
 * _SECRET_ACCESS_KEY / _SESSION_TOKEN, else AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN).
 */
export function objectStoreConfig(settings: Record<string, unknown>, env: Env, recorded: Record<string, unknown> = {}): ObjectStoreConfig {
  const bucket = str(settings.bucket) ?? str(recorded.bucket) ?? str(env.SVC_OBJECT_STORE_BUCKET);
  if (!bucket) throw new BackendError('invalid', 'no bucket for object-store', 'set bucket in the publish settings or SVC_OBJECT_STORE_BUCKET');
  const region = str(settings.region) ?? str(recorded.region) ?? str(env.SVC_OBJECT_STORE_REGION) ?? str(env.AWS_REGION) ?? str(env.AWS_DEFAULT_REGION) ?? 'us-east-1';
  const endpoint = (str(settings.endpoint) ?? str(recorded.endpoint) ?? str(env.SVC_OBJECT_STORE_ENDPOINT) ?? str(env.AWS_ENDPOINT_URL_S3) ?? str(env.AWS_ENDPOINT_URL) ?? `https://s3.${region}.amazonaws.com`).replace(/\/+$/, '');
  const scheme = URL.parse(endpoint)?.protocol;
  if (scheme !== 'http:' && scheme !== 'https:') throw new BackendError('invalid', `object-store endpoint ${endpoint} is not an http(s) URL`);
  const prefix = (str(settings.prefix) ?? str(recorded.prefix) ?? str(env.SVC_OBJECT_STORE_PREFIX) ?? 'svc-bundles').replace(/^\/+|\/+$/g, '');
  if (prefix.split('/').some((s) => s === '..' || s === '.')) throw new BackendError('invalid', `object-store prefix ${prefix} has a . or .. segment`);
  const accessKeyId = str(env.SVC_OBJECT_STORE_ACCESS_KEY_ID) ?? str(env.AWS_ACCESS_KEY_ID);
  const secretAccessKey = str(env.SVC_OBJECT_STORE_SECRET_ACCESS_KEY) ?? str(env.AWS_SECRET_ACCESS_KEY);
  const sessionToken = str(env.SVC_OBJECT_STORE_SESSION_TOKEN) ?? str(env.AWS_SESSION_TOKEN);
  return { bucket, endpoint, region, prefix, creds: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey, sessionToken } : null };
}

function needCreds(c: ObjectStoreConfig): SigV4Credentials {
  if (!c.creds) throw new BackendError('auth', 'no object-store credentials', 'set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or SVC_OBJECT_STORE_*)');
  return c.creds;
}

function client(c: ObjectStoreConfig, creds: SigV4Credentials): S3Client {
  return new S3Client({ bucket: c.bucket, endpoint: c.endpoint, region: c.region, accessKeyId: creds.accessKeyId, secretAccessKey: creds.secretAccessKey, ...(creds.sessionToken ? { sessionToken: creds.sessionToken } : {}) });
}

export function objectKeys(prefix: string, bundleSha256: string): { tarball: string; manifest: string } {
  const dir = `${prefix ? `${prefix}/` : ''}${short16(bundleSha256, 'bundle_sha256')}`;
  return { tarball: `${dir}/bundle.tar.gz`, manifest: `${dir}/manifest.lock` };
}

/** The path-style URL of an object (what anyone may GET once it is public-read). */
export function objectUrl(c: ObjectStoreConfig, key: string): string {
  return `${c.endpoint}/${awsEncode(c.bucket)}/${key.split('/').map(awsEncode).join('/')}`;
}

const AUTH_CODES = new Set(['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AccessDenied', 'ExpiredToken', 'InvalidToken', 'AccountProblem', 'ERR_S3_MISSING_CREDENTIALS', 'ERR_S3_INVALID_SIGNATURE']);
const NOT_FOUND_CODES = new Set(['NoSuchBucket', 'NoSuchKey', 'NotFound']);

/** An S3 client failure as a BackendError of the right kind. */
function s3Failure(err: unknown, what: string, c: ObjectStoreConfig): BackendError {
  if (err instanceof BackendError) return err;
  const e = err as { code?: string; name?: string; message?: string };
  const code = e?.code ?? '';
  let kind: BackendErrorKind;
  if (AUTH_CODES.has(code)) kind = 'auth';
  else if (NOT_FOUND_CODES.has(code)) kind = 'not_found';
  else if (/^HTTP \d{3}$/.test(code)) kind = kindOfStatus(Number(code.slice(5)));
  else if (/^ERR_S3/.test(code)) kind = 'invalid';
  else if (/^E[A-Z]+$|^Connection|Socket|Timeout|TimedOut/i.test(code)) kind = 'network';
  else if (e?.name === 'S3Error') kind = /^(InternalError|ServiceUnavailable|SlowDown|RequestTimeout)$/.test(code) ? 'network' : 'invalid';
  else kind = 'network';
  const msg = `${what} (bucket ${c.bucket} at ${new URL(c.endpoint).host}): ${code ? `${code} ` : ''}${e?.message ?? String(err)}`;
  return new BackendError(kind, scrub(msg, [c.creds?.secretAccessKey, c.creds?.sessionToken]));
}

/** HEAD of an object, signed: its size, or null when there is none; other answers fail by status. */
async function headObject(c: ObjectStoreConfig, creds: SigV4Credentials, key: string): Promise<number | null> {
  const url = new URL(objectUrl(c, key));
  const res = await request(url.href, { method: 'HEAD', headers: signS3('HEAD', url, {}, creds, c.region) }, `object-store HEAD ${key}`);
  if (res.status === 404) return null;
  if (!res.ok) throw s3Failure(Object.assign(new Error(`HEAD ${key}`), { code: `HTTP ${res.status}`, name: 'S3Error' }), 'object-store', c);
  return Number(res.headers.get('content-length') ?? -1);
}

/**
 * object-store: the tarball and manifest.lock under `<prefix>/<bundle_sha256[:16]>/` in an S3
 * bucket, through Bun's S3 client (multipart for large files). Staged = private objects (no
 * public ACL). Promote unlisted = the objects stay private and a presigned GET URL of the tarball
 * (seven days, the SigV4 maximum) is recorded in extra.url. Promote public = the objects are
 * copied onto themselves with the public-read canned ACL (CopyObject, no bytes move) and
 * extra.url is the plain object URL.
 */
export const objectStore: Backend = {
  name: 'object-store',
  async publish(i: PublishInput): Promise<PublishOutcome> {
    const c = objectStoreConfig(i.settings, i.env);
    const keys = objectKeys(c.prefix, i.manifest.bundle_sha256);
    const size = tarballSize(i.tarball);
    const ref = `s3://${c.bucket}/${keys.tarball}`;
    const extra: Record<string, unknown> = { bucket: c.bucket, endpoint: c.endpoint, region: c.region, prefix: c.prefix, key: keys.tarball, manifest_key: keys.manifest, tarball_sha256: i.tarballSha256, size, requested_visibility: i.visibility };
    if (i.dryRun) return { ref, visibility: 'staged', extra: { ...extra, dry_run: true } };
    const creds = needCreds(c);
    const s3 = client(c, creds);
    let duplicate = false;
    // the same bundle again (same digest, same size): left as it is, so a promoted one stays promoted
    const had = await headObject(c, creds, keys.tarball);
    try {
      if (had === size) duplicate = true;
      else await s3.write(keys.tarball, Bun.file(i.tarball), { type: 'application/gzip', acl: 'private', partSize: PART_SIZE, queueSize: PART_QUEUE });
      await s3.write(keys.manifest, manifestBytes(i.checkpointDir, i.manifest), { type: 'application/json', acl: 'private' });
    } catch (err) {
      throw s3Failure(err, 'object-store upload', c);
    }
    return { ref, visibility: 'staged', extra: { ...extra, duplicate, dry_run: false } };
  },
  async promote(record: PublishedRecord, target: PromoteTarget, env: Env, settings: Record<string, unknown> = {}) {
    const c = objectStoreConfig(settings, env, record.extra);
    const key = str(record.extra.key);
    const manifestKey = str(record.extra.manifest_key);
    if (!key || !manifestKey) throw new BackendError('invalid', `publish record ${record.ref} has no object key`);
    const creds = needCreds(c);
    const s3 = client(c, creds);
    if ((await headObject(c, creds, key)) === null) throw new BackendError('not_found', `object-store promote: ${key} is not in bucket ${c.bucket}`);
    if (target === 'unlisted') {
      const expires = new Date(Date.now() + UNLISTED_URL_SECONDS * 1000);
      const url = s3.presign(key, { method: 'GET', expiresIn: UNLISTED_URL_SECONDS });
      return { visibility: 'unlisted', extra: { url, url_expires_at: expires.toISOString() } };
    }
    for (const [k, type] of [
      [key, 'application/gzip'],
      [manifestKey, 'application/json'],
    ] as const) {
      const url = new URL(objectUrl(c, k));
      const headers = signS3('PUT', url, { 'content-type': type, 'x-amz-acl': 'public-read', 'x-amz-copy-source': `/${awsEncode(c.bucket)}/${k.split('/').map(awsEncode).join('/')}`, 'x-amz-metadata-directive': 'REPLACE', 'content-length': '0' }, creds, c.region);
      const res = await request(url.href, { method: 'PUT', headers, body: '' }, 'object-store promote');
      const text = await res.text();
      // CopyObject may fail with 200 and an <Error> body
      if (!res.ok || /<Error>/.test(text)) {
        const code = /<Code>([^<]+)<\/Code>/.exec(text)?.[1] ?? `HTTP ${res.status}`;
        const message = /<Message>([^<]+)<\/Message>/.exec(text)?.[1] ?? '';
        throw s3Failure(Object.assign(new Error(message || code), { code, name: 'S3Error' }), `object-store promote of ${k} to public`, c);
      }
    }
    return { visibility: 'public', extra: { url: objectUrl(c, key) } };
  },
};
