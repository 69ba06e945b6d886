import { lstatSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { writeStreamAtomic } from '../core/atomic.ts';
import { InputError } from '../core/errors.ts';
import { bundleFiles } from './manifest.ts';

const BLOCK = 512;
const CHUNK = 1 << 20;
const FILE_MODE = 0o644;
/** ustar's 11 octal digits hold sizes below 8 GiB; larger ones go in a pax record. */
const USTAR_MAX_SIZE = 0o77777777777;

/**
 * Write `publishedDir` (every regular file under it, manifest.lock included) as a gzip tar to
 * `outFile`, atomically and streamed. The bytes depend only on the files' paths and content:
 * entries sorted by path, file entries only (no directory metadata), mode 0644, mtime 0, uid and
 * gid 0, empty user and group names, and a gzip header with mtime 0 and OS byte 3 (Unix).
 */
export async function writeBundleTarball(publishedDir: string, outFile: string): Promise<{ sha256: string; size: number }> {
  const files = listFiles(publishedDir);
  const gz = createGzip({ level: 6 });
  const src = Readable.from(tarStream(publishedDir, files));
  src.on('error', (err) => gz.destroy(err));
  src.pipe(gz);
  const hasher = new Bun.CryptoHasher('sha256');
  let size = 0;
  async function* out(): AsyncGenerator<Uint8Array> {
    let first = true;
    for await (const c of gz as AsyncIterable<Buffer>) {
      let chunk = c;
      if (first) {
        first = false;
        chunk = Buffer.from(c);
        chunk.fill(0, 4, 8); // MTIME
        chunk[9] = 3; // OS: Unix, whatever the platform
      }
      hasher.update(chunk);
      size += chunk.length;
      yield chunk;
    }
  }
  await writeStreamAtomic(outFile, out());
  return { sha256: hasher.digest('hex'), size };
}

/** Regular files under `dir`, as POSIX paths sorted by their bytes; a symlink or special file is refused. */
function listFiles(dir: string): string[] {
  const files = bundleFiles(dir, (_rel, abs) => new InputError(`${abs} is not a regular file; a bundle holds regular files only`, 'curate the bundle again'));
  return files.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

async function* tarStream(dir: string, files: string[]): AsyncGenerator<Buffer> {
  for (const rel of files) {
    const abs = join(dir, ...rel.split('/'));
    const size = lstatSync(abs).size;
    yield* entryHeaders(rel, size);
    const fh = await open(abs, 'r');
    try {
      let left = size;
      while (left > 0) {
        const buf = Buffer.allocUnsafe(Math.min(CHUNK, left));
        const { bytesRead } = await fh.read(buf, 0, buf.length, null);
        if (bytesRead === 0) throw new InputError(`${abs} shrank while being archived`);
        left -= bytesRead;
        yield bytesRead === buf.length ? buf : buf.subarray(0, bytesRead);
      }
    } finally {
      await fh.close();
    }
    const pad = (BLOCK - (size % BLOCK)) % BLOCK;
    if (pad) yield Buffer.alloc(pad);
  }
  yield Buffer.alloc(BLOCK * 2);
}

/** The header block(s) of one file: a pax record first when the path or size does not fit ustar. */
function entryHeaders(path: string, size: number): Buffer[] {
  const name = Buffer.from(path);
  const records: string[] = [];
  if (name.length > 100) records.push(paxRecord('path', path));
  if (size > USTAR_MAX_SIZE) records.push(paxRecord('size', String(size)));
  const out: Buffer[] = [];
  if (records.length > 0) {
    const body = Buffer.from(records.join(''));
    out.push(header('././@PaxHeader', body.length, 'x'));
    out.push(body);
    const pad = (BLOCK - (body.length % BLOCK)) % BLOCK;
    if (pad) out.push(Buffer.alloc(pad));
  }
  out.push(header(name.length > 100 ? truncate(path) : path, size > USTAR_MAX_SIZE ? 0 : size, '0'));
  return out;
}

/** A pax record `<len> <key>=<value>\n`, where len counts itself. */
function paxRecord(key: string, value: string): string {
  const rest = ` ${key}=${value}\n`;
  let len = Buffer.byteLength(rest);
  while (String(len).length + Buffer.byteLength(rest) !== len) len = String(len).length + Buffer.byteLength(rest);
  return `${len}${rest}`;
}

function truncate(path: string): string {
  let b = Buffer.from(path).subarray(0, 100);
  while (b.length > 0 && (b[b.length - 1]! & 0xc0) === 0x80) b = b.subarray(0, b.length - 1);
  return b.toString().replace(/\uFFFD$/, '');
}

function header(name: string, size: number, type: '0' | 'x'): Buffer {
  const h = Buffer.alloc(BLOCK);
  h.write(name, 0, 100);
  octal(h, 100, 8, FILE_MODE);
  octal(h, 108, 8, 0); // uid
  octal(h, 116, 8, 0); // gid
  octal(h, 124, 12, size);
  octal(h, 136, 12, 0); // mtime
  h.fill(0x20, 148, 156); // checksum counted as spaces
  h.write(type, 156, 1);
  h.write('ustar\0', 257, 6);
  h.write('00', 263, 2);
  octal(h, 329, 8, 0); // devmajor
  octal(h, 337, 8, 0); // devminor
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  return h;
}

function octal(h: Buffer, off: number, len: number, value: number): void {
  h.write(`${value.toString(8).padStart(len - 1, '0')}\0`, off, len);
}
