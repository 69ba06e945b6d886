import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { Parser, type ReadEntry } from 'tar';
import { InputError, oneLine, TooLargeError } from '../core/errors.ts';
import { TarFeed } from '../ear/archive.ts';
import { isRootManifest, MANIFEST_FILE, MAX_MANIFEST_BYTES } from '../ear/manifest.ts';
import { type ArtifactStore, BUNDLE_FILE } from './storage.ts';

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
    const tap = new ManifestTap(unpackedCap(opts.maxBytes));
    const { sha256, size } = await streamToFile(body, bundle, opts.maxBytes, opts.signal, tap);
    if (opts.expectedSha !== null && opts.expectedSha !== sha256) {
      throw new InputError(`the body's SHA-256 is ${sha256}, not the ${opts.expectedSha} X-Svc-Sha256 announced`, 'the upload was damaged on the way; send it again');
    }
    const manifest = await tap.finish();
    writeFileSync(join(staging, MANIFEST_FILE), manifest);
    return { staging, id: sha256.slice(0, 16), sha256, size };
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}

async function streamToFile(body: ReadableStream<Uint8Array>, path: string, maxBytes: number, signal: AbortSignal, tap: ManifestTap): Promise<{ sha256: string; size: number }> {
  const hasher = new Bun.CryptoHasher('sha256');
  // a FileSink batches the small chunks a request body arrives in; flushed each MiB
  const sink = Bun.file(path).writer({ highWaterMark: 1 << 20 });
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
      const pending = sink.write(value);
      if (typeof pending !== 'number') await pending;
      await tap.write(value);
    }
    if (signal.aborted) throw new InputError('the client went away before the upload ended');
  } catch (err) {
    tap.abandon();
    throw err;
  } finally {
    signal.removeEventListener('abort', onAbort);
    await sink.end();
    reader.releaseLock?.();
  }
  // durable before it is renamed into place: fsync is per file, so a fresh descriptor flushes it
  const file = await open(path, 'r');
  try {
    await file.sync();
  } finally {
    await file.close();
  }
  return { sha256: hasher.digest('hex'), size };
}

/**
 * What unpacking an upload may cost at most, whatever it claims: more unpacked bytes than this
 * before its manifest.lock is refused. Four times the upload limit: bundles are mostly data that
 * compresses little, and the search stops at manifest.lock anyway.
 */
export const unpackedCap = (maxUploadBytes: number): number => 4 * maxUploadBytes;

/**
 * Reads manifest.lock from the root of a gzip tarball while its bytes go by: the body is parsed
 * (gunzip, tar headers) as it arrives, so an upload is not read a second time. Other entries'
 * bytes are dropped, and parsing stops once manifest.lock is read, at the end-of-archive marker,
 * or past `maxUnpacked` unpacked bytes (TarFeed); the parser's back-pressure holds the upload
 * back, never buffers it.
 */
export class ManifestTap {
  private readonly feed: TarFeed;
  private found: Buffer | null = null;
  private tooBig = false;

  constructor(maxUnpacked: number) {
    const parser = new Parser({
      strict: true,
      onReadEntry: (entry: ReadEntry) => {
        if (this.found !== null || entry.type !== 'File' || !isRootManifest(entry.path)) {
          entry.resume();
          return;
        }
        if (entry.size > MAX_MANIFEST_BYTES) {
          this.tooBig = true;
          entry.resume();
          return;
        }
        const parts: Buffer[] = [];
        entry.on('data', (c: Buffer) => parts.push(c));
        entry.on('end', () => {
          this.found = Buffer.concat(parts);
          // all the registry needs: the rest of the upload goes to disk unparsed
          this.feed.close();
        });
      },
    });
    this.feed = new TarFeed(parser, maxUnpacked);
  }

  /** Feeds a chunk; waits while the parser is behind. Once manifest.lock is read, the rest is not parsed. */
  async write(chunk: Uint8Array): Promise<void> {
    if (this.found !== null) return;
    await this.feed.write(chunk);
  }

  /** The upload failed on the way: stop parsing. */
  abandon(): void {
    this.feed.fail(new Error('abandoned'));
  }

  /** Ends the archive: its manifest.lock, or a 400 naming what is wrong. */
  async finish(): Promise<Buffer> {
    try {
      if (this.found === null) await this.feed.end();
    } catch (err) {
      throw new InputError(`the upload is refused: ${oneLine(err).replace(/^the bundle archive is refused: /, '')}`, 'send the bundle.tar.gz that svc ear publish builds');
    }
    if (this.tooBig) throw new InputError(`manifest.lock in the upload is over ${MAX_MANIFEST_BYTES} bytes`);
    if (this.found === null) throw new InputError('the upload has no manifest.lock at its root', 'bundles are built from a curated ear_published/ (svc ear curate)');
    return this.found;
  }
}
