// Publish backends with a large bundle (BENCH_BUNDLE_MB, default 1024 MiB, a real bundle tarball:
// manifest.lock and one data file): the svc-registry backend's streamed upload to the real registry
// (src/registry/server.ts, in this process), and local-tarball's
// hashed copy into the checkpoint, each against streaming-hashing the same file; peak RSS of the
// process (client and server both) sampled during each, target under 100 MB above the start.
// With s3rver installed, also object-store's upload (multipart through Bun's S3 client).
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import * as tar from 'tar';
import { bundleDigest, MANIFEST_FILE, type ManifestLock } from '../../src/ear/manifest.ts';
import { localTarball } from '../../src/ear/backends/local-tarball.ts';
import { objectStore } from '../../src/ear/backends/object-store.ts';
import { svcRegistry } from '../../src/ear/backends/svc-registry.ts';
import type { PublishInput } from '../../src/ear/backends/types.ts';
import { startTestRegistry } from '../support/registry-server.ts';
import { removeDir, tempDir } from '../support/svc.ts';
import { report } from './measure.ts';

const MB = Number(process.env.BENCH_BUNDLE_MB ?? 1024);
const dir = tempDir('svc-bench-backends-');
const tree = join(dir, 'tree');
mkdirSync(tree);
const chunk = new Uint8Array(1 << 20);
let seed = 7;
for (let i = 0; i < chunk.length; i++) chunk[i] = (seed = (seed * 1103515245 + 12345) % 2147483648) & 0xff;
const dataHash = new Bun.CryptoHasher('sha256');
const fd = openSync(join(tree, 'data.bin'), 'w');
for (let i = 0; i < MB; i++) ((chunk[0] = i & 0xff), writeSync(fd, chunk), dataHash.update(chunk));
closeSync(fd);
const files = [{ path: 'data.bin', size: MB * 2 ** 20, sha256: dataHash.digest('hex') }];
const manifest: ManifestLock = { version: 1, checkpoint_id: 'bench', created_at: '2026-01-01T00:00:00Z', publish: { visibility: 'staged', required: false, auto_promote: false, max_file_mb: 2048, license: null, backend: 'svc-registry' }, files, excluded_count: 0, bundle_sha256: bundleDigest(files) };
writeFileSync(join(tree, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
// the registry requires manifest.lock at the tarball's root; random data does not compress, so gzip level 1
const tarball = join(dir, 'bundle.tar.gz');
await tar.c({ gzip: { level: 1 }, file: tarball, cwd: tree, portable: true, mtime: new Date(0) }, [MANIFEST_FILE, 'data.bin']);
removeDir(tree);

async function timed<T>(f: () => Promise<T>): Promise<{ ms: number; peakMb: number; value: T }> {
  Bun.gc(true);
  const start = process.memoryUsage.rss();
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  const t0 = performance.now();
  const value = await f();
  const ms = performance.now() - t0;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage.rss());
  return { ms, peakMb: (peak - start) / 2 ** 20, value };
}

const base = await timed(async () => {
  const h = new Bun.CryptoHasher('sha256');
  for await (const c of Bun.file(tarball).stream()) h.update(c);
  return h.digest('hex');
});
const sha = base.value;
const ckpt = join(dir, 'ckpt');
mkdirSync(ckpt);
const reg = startTestRegistry(dir);
const TOKEN = reg.token('bench');
const input = (over: Partial<PublishInput>): PublishInput => ({ tarball, tarballSha256: sha, manifest, visibility: 'staged', dryRun: false, checkpointDir: ckpt, env: {}, settings: {}, ...over });

const up = await timed(() => svcRegistry.publish(input({ settings: { url: reg.url, token: TOKEN } })));
const copy = await timed(() => localTarball.publish(input({})));
await reg.stop();
// object-store through s3rver (in a child process, so the figure is the client's) when the devDependency is installed
let s3fig: { ms: number; peakMb: number } | null = null;
const child = Bun.spawn([process.execPath, '-e', `const { startS3rver } = await import(${JSON.stringify(join(import.meta.dir, '../support/s3rver.ts'))}); const s = await startS3rver(); console.log(JSON.stringify(s)); await new Promise(() => {});`], { stdout: 'pipe', stderr: 'pipe' });
try {
  const reader = child.stdout.getReader();
  const first = await reader.read();
  const s3 = JSON.parse(new TextDecoder().decode(first.value ?? new Uint8Array()).split('\n')[0] || 'null') as { endpoint: string; bucket: string; accessKeyId: string; secretAccessKey: string } | null;
  if (!s3) throw new Error((await new Response(child.stderr).text()).split('\n').find((l) => l.includes('error')) ?? 's3rver did not start');
  const env = { AWS_ACCESS_KEY_ID: s3.accessKeyId, AWS_SECRET_ACCESS_KEY: s3.secretAccessKey };
  s3fig = await timed(() => objectStore.publish(input({ env, settings: { bucket: s3.bucket, endpoint: s3.endpoint } })));
} catch (err) {
  console.log(`object-store skipped: ${err instanceof Error ? err.message.split('\n')[0] : err}`);
} finally {
  child.kill();
}
removeDir(dir);

console.log(`bundle ${MB} MiB; baseline: streaming SHA-256 of the file, peak +${base.peakMb.toFixed(0)} MB`);
report(`svc-registry upload (peak +${up.peakMb.toFixed(0)} MB, target < 100)`, up.ms, base.ms);
report(`local-tarball hashed copy (peak +${copy.peakMb.toFixed(0)} MB, target < 100)`, copy.ms, base.ms);
if (s3fig) report(`object-store upload to s3rver (peak +${s3fig.peakMb.toFixed(0)} MB, target < 100)`, s3fig.ms, base.ms);
if (up.value.visibility !== 'staged' || copy.value.visibility !== 'staged') throw new Error('bench publish did not stage');
if (up.value.extra.id !== sha.slice(0, 16)) throw new Error('the registry stored another id than the tarball\'s');
