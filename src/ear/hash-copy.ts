import { open } from 'node:fs/promises';

const CHUNK = 1 << 20;

/**
 * Copy `from` to `to` and hash the bytes copied, in 1 MiB chunks (constant memory): the digest is
 * of exactly what was written, even if the source changes meanwhile. Returns the size and SHA-256.
 */
export async function copyHashed(from: string, to: string, mode = 0o644): Promise<{ size: number; sha256: string }> {
  const src = await open(from, 'r');
  try {
    const dst = await open(to, 'wx', mode);
    try {
      const hasher = new Bun.CryptoHasher('sha256');
      const buf = Buffer.allocUnsafe(CHUNK);
      let size = 0;
      for (;;) {
        const { bytesRead } = await src.read(buf, 0, CHUNK, null);
        if (bytesRead === 0) break;
        const chunk = buf.subarray(0, bytesRead);
        hasher.update(chunk);
        let off = 0;
        while (off < bytesRead) off += (await dst.write(chunk, off, bytesRead - off)).bytesWritten;
        size += bytesRead;
      }
      await dst.sync();
      return { size, sha256: hasher.digest('hex') };
    } finally {
      await dst.close();
    }
  } finally {
    await src.close();
  }
}

/** SHA-256 of a file, streamed in 1 MiB chunks. */
export async function sha256File(path: string): Promise<{ size: number; sha256: string }> {
  const fh = await open(path, 'r');
  try {
    const hasher = new Bun.CryptoHasher('sha256');
    const buf = Buffer.allocUnsafe(CHUNK);
    let size = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, CHUNK, null);
      if (bytesRead === 0) break;
      hasher.update(buf.subarray(0, bytesRead));
      size += bytesRead;
    }
    return { size, sha256: hasher.digest('hex') };
  } finally {
    await fh.close();
  }
}
