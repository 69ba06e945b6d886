// Hostile bundle archives, made by the tests themselves: a valid bundle followed by gigabytes of
// zeros or by random data after its end-of-archive marker, a file whose body unpacks to gigabytes,
// and an archive of more entries than any bundle has. Built from gzip members (a gzip file may be
// several members back to back; every reader unpacks them as one stream), so that a 2 GiB bomb
// takes a 64 MiB compression once, not 2 GiB of work.
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Header } from 'tar';
import { writeBundleTree } from './bundle.ts';

const MIB = 1024 * 1024;

function header(path: string, size: number): Buffer {
  const block = Buffer.alloc(512);
  new Header({ path, mode: 0o644, size, mtime: new Date(0), type: 'File', uid: 0, gid: 0 }).encode(block, 0);
  return block;
}

/** A tar entry: header, body, padding to 512 bytes. */
function entry(path: string, body: Buffer): Buffer {
  return Buffer.concat([header(path, body.length), body, Buffer.alloc((512 - (body.length % 512)) % 512)]);
}

/** The tar of a valid bundle (its files and manifest.lock, sorted), with its end marker. */
function bundleTar(root: string, files: Record<string, string>): Buffer {
  const tree = join(root, `tree-${randomBytes(4).toString('hex')}`);
  const lock = writeBundleTree(tree, files);
  const names = [...Object.keys(files), 'manifest.lock'].sort();
  const body = (n: string) => (n === 'manifest.lock' ? Buffer.from(`${JSON.stringify(lock, null, 2)}\n`) : Buffer.from(files[n] as string));
  return Buffer.concat([...names.map((n) => entry(n, body(n))), Buffer.alloc(1024)]);
}

/** Writes gzip members to `file`; `zerosMiB` more MiB of zeros, in members of 64 MiB. */
function writeMembers(file: string, members: Buffer[], zerosMiB = 0): number {
  const fd = openSync(file, 'w');
  let size = 0;
  try {
    for (const m of members) size += writeSync(fd, m);
    if (zerosMiB > 0) {
      const zeros = gzipSync(Buffer.alloc(64 * MIB), { level: 9 });
      for (let done = 0; done < zerosMiB; done += 64) size += writeSync(fd, zeros);
    }
  } finally {
    closeSync(fd);
  }
  return size;
}

export const BOMB_FILES = { 'results/metrics.json': '{"accuracy": 0.91}\n', 'code/train.py': 'print("train")\n' };

/** A valid bundle, then `gib` GiB of zeros after its end marker (about 1 MB packed per GiB). */
export function trailingZerosBomb(root: string, file: string, gib = 2): number {
  return writeMembers(file, [gzipSync(bundleTar(root, BOMB_FILES))], gib * 1024);
}

/** A valid bundle, then `mib` MiB of random data after its end marker (as large packed as unpacked). */
export function trailingGarbage(root: string, file: string, mib = 64): number {
  return writeMembers(file, [gzipSync(bundleTar(root, BOMB_FILES)), gzipSync(randomBytes(mib * MIB), { level: 1 })]);
}

/** A legitimate bundle of about `bytes` packed: random data files, which do not compress. */
export function legitimateBundle(root: string, file: string, bytes: number): number {
  const parts = 8;
  const files: Record<string, string> = {};
  for (let i = 0; i < parts; i++) files[`data/part-${i}.txt`] = randomBytes(Math.ceil(bytes / parts / 2)).toString('hex');
  return writeMembers(file, [gzipSync(bundleTar(root, files), { level: 6 })]);
}

/**
 * A bundle with a file entry declaring `gib` GiB whose body is that many GiB of zeros: after
 * manifest.lock (which declares a few bytes), or before it, where nothing is declared yet.
 */
export function entryBomb(root: string, file: string, where: 'after-manifest' | 'before-manifest', gib = 2): number {
  const bytes = gib * 1024 * MIB;
  const small = bundleTar(root, BOMB_FILES);
  if (where === 'after-manifest') {
    // the small bundle without its end marker, then the huge entry's header; its body is the zeros
    return writeMembers(file, [gzipSync(Buffer.concat([small.subarray(0, small.length - 1024), header('z-data/zeros.bin', bytes)]))], gib * 1024);
  }
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, gzipSync(header('a-data/zeros.bin', bytes)));
    const zeros = gzipSync(Buffer.alloc(64 * MIB), { level: 9 });
    for (let done = 0; done < gib * 1024; done += 64) writeSync(fd, zeros);
    writeSync(fd, gzipSync(small));
  } finally {
    closeSync(fd);
  }
  return Bun.file(file).size;
}

/**
 * No manifest.lock at all, so nothing declares a size: `parts` files of 64 MiB, each mostly zeros
 * with 160 KiB of random data, about 400 times smaller packed (under the ratio bound): 1.5 GiB of
 * files in under 4 MB.
 */
export function noManifestBomb(file: string, parts = 24): number {
  const noise = 160 * 1024;
  const zeros = gzipSync(Buffer.alloc(64 * MIB - noise), { level: 9 });
  const fd = openSync(file, 'w');
  try {
    for (let i = 0; i < parts; i++) {
      writeSync(fd, gzipSync(header(`data/part-${i}.bin`, 64 * MIB)));
      writeSync(fd, zeros);
      writeSync(fd, gzipSync(randomBytes(noise), { level: 1 }));
    }
    writeSync(fd, gzipSync(Buffer.alloc(1024)));
  } finally {
    closeSync(fd);
  }
  return Bun.file(file).size;
}

/** An archive of `n` empty files, far more than any bundle holds, a few hundred KB packed. */
export function manyEntries(file: string, n = 200_001): number {
  const blocks: Buffer[] = [];
  for (let i = 0; i < n; i++) blocks.push(header(`f/${i.toString(36)}`, 0));
  blocks.push(Buffer.alloc(1024));
  return writeMembers(file, [gzipSync(Buffer.concat(blocks), { level: 9 })]);
}
