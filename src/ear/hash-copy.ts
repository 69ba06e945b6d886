import { constants } from 'node:fs';
import { chmod, copyFile, open } from 'node:fs/promises';

const CHUNK = 1 << 20;

/**
 * Copy `from` to `to` (a new file) and hash the copy: the digest is of exactly the bytes in `to`,
 * even if `from` changes meanwhile. The copy is the kernel's (a reflink where the filesystem has
 * them, else copy_file_range), the hash reads in 1 MiB chunks: constant memory either way.
 */
export async function copyHashed(from: string, to: string, mode = 0o644): Promise<{ size: number; sha256: string }> {
  await copyFile(from, to, constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE);
  await chmod(to, mode);
  return sha256File(to);
}

/** Read buffers kept for reuse: one per file being hashed at once, instead of garbage per file. */
const pool: Buffer[] = [];

/** SHA-256 of a file, streamed in 1 MiB chunks. */
export async function sha256File(path: string): Promise<{ size: number; sha256: string }> {
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
    return { size, sha256: hasher.digest('hex') };
  } finally {
    if (pool.length < 8) pool.push(buf);
    await fh.close();
  }
}
