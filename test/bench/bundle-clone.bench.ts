// Clone verification of a 1 GiB bundle over file://: download (copy), streamed extraction, streamed
// hashing of every file, digest check, rename. The clone runs in a child process so its peak RSS is
// its own; the baseline is the same child cloning a 1 MiB bundle. Streaming means the peak does not
// grow with the bundle: target < 100 MB above the baseline.
import { createWriteStream, mkdirSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import * as tar from 'tar';
import { hashFile as sha256File } from '../../src/core/file-hash.ts';
import type { ManifestFile } from '../../src/ear/manifest.ts';
import { treeFiles, writeBundleTree } from '../support/bundle.ts';
import { removeDir, tempDir } from '../support/svc.ts';

const GIB = Number(process.env.BENCH_CLONE_BYTES ?? 1024 ** 3);
const FILES = 16;
const CLONE = resolve(import.meta.dir, '../../src/clone/clone.ts');
const dir = tempDir('svc-bench-clone-');

/** A bundle of `total` bytes of incompressible data in FILES files, and its tarball (gzip level 1). */
async function bundle(name: string, total: number): Promise<{ tarball: string; digest: string }> {
  const tree = join(dir, name);
  mkdirSync(join(tree, 'data'), { recursive: true });
  const per = Math.ceil(total / FILES);
  const chunk = new Uint8Array(1 << 20);
  const paths: string[] = [];
  for (let i = 0; i < FILES; i++) {
    const path = `data/part-${String(i).padStart(2, '0')}.bin`;
    const out = createWriteStream(join(tree, path));
    for (let done = 0; done < per; done += chunk.length) {
      crypto.getRandomValues(chunk.subarray(0, 65536));
      chunk.copyWithin(65536, 0, chunk.length - 65536);
      if (!out.write(chunk.slice(0, Math.min(chunk.length, per - done)))) await once(out, 'drain');
    }
    out.end();
    await once(out, 'close');
    paths.push(path);
  }
  // manifest.lock from the files on disk (hashed streaming)
  const records: ManifestFile[] = [];
  for (const p of paths) records.push({ path: p, ...(await sha256File(join(tree, p))) });
  const lockDir = join(dir, `${name}-lock`);
  mkdirSync(lockDir);
  const lock = writeBundleTree(lockDir, {}, { lockFiles: () => records });
  await Bun.write(join(tree, 'manifest.lock'), Bun.file(join(lockDir, 'manifest.lock')));
  const tarball = join(dir, `${name}.tar.gz`);
  await tar.c({ gzip: { level: 1 }, file: tarball, cwd: tree, portable: true, mtime: new Date(0) }, treeFiles(tree));
  removeDir(tree);
  return { tarball, digest: lock.bundle_sha256 };
}

/**
 * Peak RSS is the child's VmHWM read from /proc/self/status at its end: the rusage maxrss of a
 * spawned child starts from the parent's RSS at the fork and survives exec, so it would measure the
 * bench process instead.
 */
async function cloneChild(ref: string, dest: string, digest: string): Promise<{ ms: number; rss: number }> {
  const script = `const { cloneBundle } = await import(${JSON.stringify(CLONE)}); const r = await cloneBundle(${JSON.stringify(ref)}, ${JSON.stringify(dest)}, { env: {}, expectSha256: ${JSON.stringify(digest)} }); if (r.bundle_sha256 !== ${JSON.stringify(digest)}) process.exit(3); const m = /VmHWM:\\s+(\\d+) kB/.exec(require('node:fs').readFileSync('/proc/self/status', 'utf8')); console.log(m ? Number(m[1]) * 1024 : -1);`;
  const t0 = performance.now();
  const proc = Bun.spawn([process.execPath, '-e', script], { stdout: 'pipe', stderr: 'inherit' });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(`clone child exited ${code}`);
  return { ms, rss: Number(out.trim()) };
}

try {
  const small = await bundle('small', 1 << 20);
  const big = await bundle('big', GIB);
  const size = statSync(big.tarball).size;
  const base = await cloneChild(`file://${small.tarball}`, join(dir, 'clone-small'), small.digest);
  const run = await cloneChild(`file://${big.tarball}`, join(dir, 'clone-big'), big.digest);
  removeDir(join(dir, 'clone-big'));
  // the same bundle over http from a local server (the https:// resolver's streamed download)
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response(Bun.file(big.tarball)) });
  const http = await cloneChild(`http://127.0.0.1:${server.port}/bundle.tar.gz`, join(dir, 'clone-http'), big.digest).finally(() => server.stop(true));
  const mb = (n: number) => (n / 1e6).toFixed(1);
  console.log(`clone-verify of a ${mb(size)} MB bundle (${FILES} files), peak RSS of the cloning process`);
  console.log(`  1 MiB bundle, file:// (baseline): ${mb(base.rss)} MB`);
  for (const [name, r] of [['file://', run], ['http://', http]] as const) {
    const growth = r.rss - base.rss;
    console.log(`  ${mb(size)} MB bundle, ${name.padEnd(8)}: ${mb(r.rss)} MB (+${mb(growth)} MB; ${((r.rss / size) * 100).toFixed(1)}% of the bundle size), ${(size / 1e6 / (r.ms / 1000)).toFixed(0)} MB/s  target growth < 100 MB: ${growth < 100e6 ? 'met' : 'MISSED'}`);
  }
} finally {
  removeDir(dir);
}
