/**
 * s3rver (a local implementation of the S3 REST API) on 127.0.0.1 for the object-store backend's
 * tests, with one bucket, its default credentials (S3RVER / S3RVER, SigV4 checked) and every
 * request's method, path and headers recorded (s3rver keeps no ACLs: the tests read the
 * x-amz-acl header that was sent). Needs the devDependency `s3rver` (3.7.1).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type S3Request = { method: string; path: string; headers: Record<string, string> };

export type LocalS3 = { endpoint: string; bucket: string; accessKeyId: string; secretAccessKey: string; requests: S3Request[]; stop(): Promise<void> };

export async function startS3rver(bucket = 'svc-test'): Promise<LocalS3> {
  const name = 's3rver'; // untyped package: loaded by name, typed here
  const { default: S3rver } = (await import(name).catch(() => {
    throw new Error('s3rver is not installed: it is a devDependency (s3rver 3.7.1) of the object-store tests');
  })) as { default: new (o: Record<string, unknown>) => any };
  const dir = mkdtempSync(join(tmpdir(), 'svc-s3rver-'));
  const requests: S3Request[] = [];
  const s = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: bucket }] });
  // s3rver is a Koa app: a first middleware records what arrives (composed when run() listens)
  s.middleware.unshift(async (ctx: { method: string; url: string; headers: Record<string, string> }, next: () => Promise<void>) => {
    requests.push({ method: ctx.method, path: ctx.url, headers: { ...ctx.headers } });
    await next();
  });
  const addr = (await s.run()) as { port: number };
  return {
    endpoint: `http://127.0.0.1:${addr.port}`,
    bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    requests,
    stop: async () => {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
