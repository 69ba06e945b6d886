import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';

/** Files are read a chunk at a time into a reused buffer: constant memory, whatever their size. */
const CHUNK = 1 << 20;
/** Buffers kept for reuse, one per file being hashed at once, instead of garbage per file. */
const pool: Buffer[] = [];

/** SHA-256 (hex) and size of a file, streamed. */
export async function hashFile(path: string): Promise<{ sha256: string; size: number }> {
  const fh = await open(path, 'r');
  const buf = pool.pop() ?? Buffer.allocUnsafe(CHUNK);
  try {
    const hasher = new Bun.CryptoHasher('sha256');
    let size = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, CHUNK, null);
      if (bytesRead === 0) break;
      hasher.update(buf.subarray(0, bytesRead));
      size += bytesRead;
    }
    return { sha256: hasher.digest('hex'), size };
  } finally {
    if (pool.length < 8) pool.push(buf);
    await fh.close();
  }
}

/** hashFile for callers that walk a tree synchronously. */
export function hashFileSync(path: string): { sha256: string; size: number } {
  const hasher = new Bun.CryptoHasher('sha256');
  const buf = pool.pop() ?? Buffer.allocUnsafe(CHUNK);
  const fd = openSync(path, 'r');
  let size = 0;
  try {
    for (let n = readSync(fd, buf, 0, CHUNK, null); n > 0; n = readSync(fd, buf, 0, CHUNK, null)) {
      hasher.update(buf.subarray(0, n));
      size += n;
    }
    return { sha256: hasher.digest('hex'), size };
  } finally {
    if (pool.length < 8) pool.push(buf);
    closeSync(fd);
  }
}

/** SHA-256 (hex) of bytes already read. */
export function sha256Hex(bytes: Uint8Array): string {
  return new Bun.CryptoHasher('sha256').update(bytes).digest('hex');
}

/**
 * A text file read once: its text (decoded as UTF-8) and the SHA-256 of its bytes, the digest
 * hashFileSync gives, also for a file that is not valid UTF-8.
 */
export function readTextHashed(path: string): { text: string; sha256: string } {
  const bytes = readFileSync(path);
  return { text: bytes.toString('utf8'), sha256: sha256Hex(bytes) };
}
