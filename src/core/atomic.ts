import { closeSync, createWriteStream, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { diskError } from './errors.ts';

/**
 * Write a file so that readers see either the old content or the new, never a part:
 * write a temp file in the same directory, fsync it, rename over the target, fsync the directory.
 * `durable: false` leaves out the two fsyncs, for a file rebuilt from another at the next write:
 * a killed process still leaves it whole, only a power cut could leave it older than its source.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o644, durable = true): void {
  try {
    writeWhole(path, data, mode, durable);
  } catch (err) {
    throw diskError(err, path);
  }
}

function writeWhole(path: string, data: string | Uint8Array, mode: number, durable: boolean): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const tmp = tempName(path);
  const fd = openSync(tmp, 'w', mode);
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    if (durable) fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  if (durable) syncDir(dir);
}

/**
 * writeFileAtomic for content too large to hold in memory: the chunks (through `transform`, a
 * compressor say) are piped into the temp file with back-pressure, which is fsynced and renamed
 * over the target once they end. A source that fails leaves the target as it was and no temp file.
 */
export async function writeStreamAtomic(path: string, content: AsyncIterable<string | Uint8Array>, transform?: Transform, mode = 0o644): Promise<void> {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const tmp = tempName(path);
  try {
    // opened here, not by the stream later on its own: a source that fails at once must not leave a file created after the clean-up
    const sink = createWriteStream(tmp, { fd: openSync(tmp, 'w', mode) });
    await (transform ? pipeline(content, transform, sink) : pipeline(content, sink));
    // fsync is per file, not per descriptor: a fresh one flushes what the stream wrote
    const fd = openSync(tmp, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  syncDir(dir);
}

/** The name is cut so that a target name of the longest length allowed still leaves room for the rest. */
function tempName(path: string): string {
  return join(dirname(path), `.${Array.from(basename(path)).slice(0, 40).join('')}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
}

/** Every JSON file svc writes goes through here: two-space indent, trailing newline. */
export function writeJsonAtomic(path: string, value: unknown): void {
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}

function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some filesystems refuse fsync on a directory; the rename itself is still atomic there.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
