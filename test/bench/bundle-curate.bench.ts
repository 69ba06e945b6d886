// Curating and hashing 1 GiB in 1,000 files (copy into ear_published/, SHA-256 of each file,
// manifest.lock) against Bun's raw SHA-256 over the same files in the same run. Target: curation
// throughput at least 80% of the raw hashing throughput. Rounds alternate, so drift hits both.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { curateBundle, type CurateResult } from '../../src/ear/curate.ts';
import { removeDir, tempDir } from '../support/svc.ts';
import { median } from './measure.ts';

const FILES = Number(process.env.BENCH_CURATE_FILES ?? 1000);
const FILE_BYTES = Number(process.env.BENCH_CURATE_FILE_BYTES ?? 1024 * 1024);
const ROUNDS = Number(process.env.BENCH_ROUNDS_CURATE ?? 3);
const TARGET = 0.8;

const dir = tempDir('svc-bench-curate-');
const ckpt = join(dir, 'run');
const ear = join(ckpt, 'ear');
mkdirSync(ear, { recursive: true });
writeFileSync(join(ckpt, 'tree.json'), '{}');
writeFileSync(join(ear, 'publish.yaml'), 'include: ["data/**"]\nmax_file_mb: 10\n');
// real bytes (no holes): xorshift noise, different per file
const names: string[] = [];
const buf = new Uint32Array(FILE_BYTES / 4);
let s = 0x9e3779b9;
for (let i = 0; i < FILES; i++) {
  for (let j = 0; j < buf.length; j++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    buf[j] = s >>> 0;
  }
  const sub = join(ear, 'data', String(i % 10));
  mkdirSync(sub, { recursive: true });
  const p = join(sub, `f${i}.bin`);
  writeFileSync(p, buf);
  names.push(p);
}
const total = FILES * FILE_BYTES;

async function raw(): Promise<number> {
  const t0 = performance.now();
  for (const p of names) new Bun.CryptoHasher('sha256').update(await Bun.file(p).bytes()).digest('hex');
  return performance.now() - t0;
}

let peakRss = 0;
async function curate(): Promise<number> {
  rmSync(join(ckpt, 'ear_published'), { recursive: true, force: true });
  Bun.gc(true);
  const rss0 = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss - rss0);
  }, 5);
  const t0 = performance.now();
  const r = (await curateBundle(ckpt, {})) as CurateResult;
  const ms = performance.now() - t0;
  clearInterval(timer);
  if (r.file_count !== FILES) throw new Error(`curated ${r.file_count} files, expected ${FILES}`);
  return ms;
}

await raw(); // warm the page cache
await curate();
const rawMs: number[] = [];
const curateMs: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  rawMs.push(await raw());
  curateMs.push(await curate());
}
const mib = total / 1048576;
const rawRate = mib / (median(rawMs) / 1000);
const curateRate = mib / (median(curateMs) / 1000);
const ratio = curateRate / rawRate;
console.log(`${FILES} files, ${mib.toFixed(0)} MiB, ${ROUNDS} rounds, median`);
console.log(`${'raw SHA-256 (Bun.CryptoHasher, baseline)'.padEnd(48)} ${rawRate.toFixed(0).padStart(7)} MiB/s`);
console.log(`${'curateBundle (copy + hash + manifest.lock)'.padEnd(48)} ${curateRate.toFixed(0).padStart(7)} MiB/s  ${ratio.toFixed(2)}x baseline  target >= ${TARGET}: ${ratio >= TARGET ? 'met' : 'MISSED'}`);
console.log(`${'curateBundle RSS growth (peak over the run)'.padEnd(48)} ${(peakRss / 1048576).toFixed(1).padStart(7)} MiB  (the files are ${(FILE_BYTES / 1048576).toFixed(0)} MiB each, ${mib.toFixed(0)} MiB in all)`);
removeDir(dir);
