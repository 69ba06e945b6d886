// Registry upload and download of a 1 GiB bundle through RegistryClient to `svc registry serve`
// running as a child process (dist/svc), and the same upload as the ARI clients send it (a
// multipart form, posted by curl -F): throughput against a plain file copy of the same bytes,
// and the peak RSS of the server and of this (client) process during each transfer. Target: peak
// memory under 100 MB for both. Peaks are Linux's VmHWM, reset before each phase (clear_refs 5).
import { closeSync, copyFileSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { randomFillSync } from 'node:crypto';
import { join } from 'node:path';
import { create } from 'tar';
import { TokenStore } from '../../src/registry/tokens.ts';
import { spawnRegistry } from '../support/registry-server.ts';
import { removeDir, tempDir } from '../support/svc.ts';

const MB = Number(process.env.BENCH_REGISTRY_MB ?? 1024);
const TARGET_MB = 100;

function peakMb(pid: number | 'self'): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}
function resetPeak(pid: number | 'self'): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // not Linux, or not allowed: the peak is then the process's whole life
  }
}
function line(name: string, ms: number, baseMs: number, bytes: number, peaks: [string, number][]): void {
  const rate = bytes / 1024 / 1024 / (ms / 1000);
  const mem = peaks.map(([who, mb]) => `${who} peak ${mb.toFixed(0)} MB (target < ${TARGET_MB}: ${mb < TARGET_MB ? 'met' : 'MISSED'})`).join(', ');
  console.log(`${name.padEnd(28)} ${(ms / 1000).toFixed(2).padStart(7)} s ${rate.toFixed(0).padStart(6)} MB/s ${(ms / baseMs).toFixed(2).padStart(6)}x copy  ${mem}`);
}

const dir = tempDir('svc-bench-registry-');
const data = join(dir, 'data');
mkdirSync(data);
try {
  // the bundle: manifest.lock and MB MiB of random bytes (incompressible, as real data mostly is)
  const src = join(dir, 'ear_published');
  mkdirSync(src);
  writeFileSync(join(src, 'manifest.lock'), '{"version":1}\n');
  const fd = openSync(join(src, 'data.bin'), 'w');
  const chunk = Buffer.alloc(1 << 20);
  for (let i = 0; i < MB; i++) writeSync(fd, randomFillSync(chunk));
  closeSync(fd);
  const tarball = join(dir, 'bundle.tar.gz');
  await create({ gzip: { level: 1 }, file: tarball, cwd: src, portable: true }, ['manifest.lock', 'data.bin']);
  rmSync(join(src, 'data.bin'));
  const size = statSync(tarball).size;

  const t0 = performance.now();
  copyFileSync(tarball, join(dir, 'copy.tar.gz'));
  const copyMs = performance.now() - t0;
  rmSync(join(dir, 'copy.tar.gz'));
  const t1 = performance.now();
  await Bun.write(join(dir, 'copy2.tar.gz'), Bun.file(tarball));
  const streamCopyMs = performance.now() - t1;
  rmSync(join(dir, 'copy2.tar.gz'));

  const tokens = new TokenStore(data);
  const token = tokens.issue('bench').token;
  tokens.close();
  const server = await spawnRegistry(data);
  try {
    /** A transfer by a client process of its own (test/bench/registry-client.ts). */
    const transfer = async (...args: string[]) => {
      const proc = Bun.spawn([process.execPath, join(import.meta.dir, 'registry-client.ts'), ...args], { stdout: 'pipe', stderr: 'inherit' });
      const out = await new Response(proc.stdout).text();
      if ((await proc.exited) !== 0) throw new Error(`the client failed: ${out}`);
      return JSON.parse(out) as { ms: number; peak_mb: number; result: { id: string; sha256: string; size: number } };
    };
    console.log(`bundle ${(size / 1024 / 1024).toFixed(0)} MiB; plain copy (copyFileSync) ${(copyMs / 1000).toFixed(2)} s, Bun.write copy ${(streamCopyMs / 1000).toFixed(2)} s`);
    resetPeak(server.proc.pid);
    const up = await transfer('upload', server.url, token, tarball);
    line('upload (hash + send)', up.ms, copyMs, size, [['server', peakMb(server.proc.pid)], ['client', up.peak_mb]]);
    resetPeak(server.proc.pid);
    const down = await transfer('download', server.url, token, join(dir, 'down.tar.gz'), up.result.id);
    if (down.result.sha256 !== up.result.sha256 || down.result.size !== size) throw new Error('the download differs from the upload');
    line('download (verified)', down.ms, copyMs, size, [['server', peakMb(server.proc.pid)], ['client', down.peak_mb]]);
    await fetch(`${server.url}/artifact/${up.result.id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } });
    resetPeak(server.proc.pid);
    const t2 = performance.now();
    const form = Bun.spawn(['curl', '-sS', '-o', '/dev/null', '-w', '%{http_code}', '-X', 'POST', `${server.url}/artifact`, '-H', `Authorization: Bearer ${token}`, '-F', `bundle=@${tarball}`, '-F', 'manifest={"version":1}', '-F', 'visibility=staged'], { stdout: 'pipe' });
    const formStatus = (await new Response(form.stdout).text()).trim();
    const formMs = performance.now() - t2;
    if (formStatus !== '201') throw new Error(`the multipart upload answered ${formStatus}`);
    line('upload as a form (curl -F)', formMs, copyMs, size, [['server', peakMb(server.proc.pid)]]);
  } finally {
    await server.stop();
  }
} finally {
  removeDir(dir);
}
