import { createReadStream } from 'node:fs';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { Parser, type ReadEntry } from 'tar';
import { pipeline } from 'node:stream/promises';
import { InputError, TooLargeError } from '../core/errors.ts';
import { MANIFEST_FILE } from '../ear/manifest.ts';
import { type ArtifactStore, BUNDLE_FILE } from './storage.ts';

/** manifest.lock is a small JSON file; a bigger one is not a curated bundle's. */
const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;

/** An upload written to a staging directory under tmp/, not yet in place. */
export type Received = { staging: string; id: string; sha256: string; size: number };

/**
 * Streams a request body into `staging/bundle.tar.gz` while hashing it, refusing more than
 * `maxBytes` (413) and a digest other than `expectedSha` when given (400); then reads manifest.lock
 * from the tarball's root, streaming (400 when it has none or is no gzip tarball), and writes it
 * beside. Any failure, the client going away included, removes the staging directory.
 */
export async function receiveUpload(store: ArtifactStore, body: ReadableStream<Uint8Array>, opts: { maxBytes: number; expectedSha: string | null; signal: AbortSignal }): Promise<Received> {
  const staging = store.tempPath('upload');
  mkdirSync(staging);
  try {
    const bundle = join(staging, BUNDLE_FILE);
    const { sha256, size } = await streamToFile(body, bundle, opts.maxBytes, opts.signal);
    if (opts.expectedSha !== null && opts.expectedSha !== sha256) {
      throw new InputError(`the body's SHA-256 is ${sha256}, not the ${opts.expectedSha} X-Svc-Sha256 announced`, 'the upload was damaged on the way; send it again');
    }
    const manifest = await readManifest(bundle);
    writeFileSync(join(staging, MANIFEST_FILE), manifest);
    return { staging, id: sha256.slice(0, 16), sha256, size };
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}

async function streamToFile(body: ReadableStream<Uint8Array>, path: string, maxBytes: number, signal: AbortSignal): Promise<{ sha256: string; size: number }> {
  const hasher = new Bun.CryptoHasher('sha256');
  const file = await open(path, 'wx');
  const reader = body.getReader();
  // a client that goes away mid-body: Bun aborts the request's signal; stop reading then
  const onAbort = () => void reader.cancel().catch(() => {});
  signal.addEventListener('abort', onAbort);
  let size = 0;
  try {
    for (;;) {
      if (signal.aborted) throw new InputError('the client went away before the upload ended');
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) throw new TooLargeError(`upload over the registry's limit of ${maxBytes} bytes`, 'raise SVC_REGISTRY_MAX_UPLOAD_MB on the server, or publish a smaller bundle');
      hasher.update(value);
      let off = 0;
      while (off < value.byteLength) off += (await file.write(value, off, value.byteLength - off)).bytesWritten;
    }
    if (signal.aborted) throw new InputError('the client went away before the upload ended');
    await file.sync();
  } finally {
    signal.removeEventListener('abort', onAbort);
    await file.close();
    reader.releaseLock?.();
  }
  return { sha256: hasher.digest('hex'), size };
}

const isRootManifest = (p: string): boolean => p.replace(/^(\.\/)+/, '') === MANIFEST_FILE;

/** manifest.lock at the root of a gzip tarball, read from the file as a stream. */
export async function readManifest(tarball: string): Promise<Buffer> {
  let found: Buffer | null = null;
  let tooBig = false;
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry: ReadEntry) => {
      if (found !== null || entry.type !== 'File' || !isRootManifest(entry.path)) {
        entry.resume();
        return;
      }
      if (entry.size > MAX_MANIFEST_BYTES) {
        tooBig = true;
        entry.resume();
        return;
      }
      const parts: Buffer[] = [];
      entry.on('data', (c: Buffer) => parts.push(c));
      entry.on('end', () => {
        found = Buffer.concat(parts);
      });
    },
  });
  try {
    await pipeline(createReadStream(tarball), parser);
  } catch (err) {
    throw new InputError(`the upload is not a gzip tarball: ${(err as Error).message}`, 'send the bundle.tar.gz that svc ear publish builds');
  }
  if (tooBig) throw new InputError(`manifest.lock in the upload is over ${MAX_MANIFEST_BYTES} bytes`);
  if (found === null) throw new InputError('the upload has no manifest.lock at its root', 'bundles are built from a curated ear_published/ (svc ear curate)');
  return found;
}

