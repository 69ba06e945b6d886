import type { EventEmitter } from 'node:events';
import { createReadStream } from 'node:fs';
import { createGunzip, type Gunzip } from 'node:zlib';
import type { Parser } from 'tar';
import { InvalidRecordError } from '../core/errors.ts';

/** More entries than any bundle needs: an archive of millions of empty files would only eat inodes. */
export const MAX_ENTRIES = 200_000;

/**
 * Past this many unpacked bytes, unpacking more than RATIO_LIMIT bytes per packed byte is a bomb:
 * real bundles reach such ratios only for runs of zeros, and not for a gigabyte of them.
 */
const RATIO_FLOOR = 1 << 30;
const RATIO_LIMIT = 1000;

/** What an archive refused for its size or shape says, and what to do about it. */
export class ArchiveRefusedError extends InvalidRecordError {
  constructor(why: string) {
    super(`the bundle archive is refused: ${why}`, 'a bundle is the gzip tarball svc ear publish builds');
    this.name = 'ArchiveRefusedError';
  }
}

/**
 * Feeds a gzip tarball, as its packed bytes arrive, to a tar parser (a Parser or an Unpack), and
 * keeps what that costs bounded whatever the archive holds:
 * - unpacking stops at the end-of-archive marker: bytes after it (a gigabyte of zeros, or random
 *   garbage) are never unpacked, which the parser would otherwise buffer in growing copies;
 * - more than `maxUnpacked` unpacked bytes, or more than RATIO_LIMIT per packed byte past a
 *   gigabyte, is refused at once;
 * - the parser gets only tar bytes: a compressed stream inside, which it would unpack on its own
 *   without these bounds, is refused.
 * A plain (uncompressed) tarball is read the same way, without the unpacking. Back-pressure runs
 * from the parser (and the files it writes) through the unpacking to `write`.
 */
export class TarFeed {
  private readonly gunzip: Gunzip;
  private packed = 0;
  private unpacked = 0;
  private failure: Error | null = null;
  private gzipError: Error | null = null;
  private endMarker = false;
  private stopped = false;
  /** gzip, or a plain tarball; told by the first bytes */
  private plain: boolean | null = null;
  /** the first tar bytes, held until there are enough to tell a compressed stream (null once told) */
  private head: Buffer | null = Buffer.alloc(0);
  private readonly finished: Promise<void>;

  constructor(
    private readonly parser: Parser,
    private readonly maxUnpacked: number,
  ) {
    this.gunzip = createGunzip();
    this.finished = new Promise<void>((resolve) => {
      parser.on('end', resolve);
      parser.on('close', resolve);
      parser.on('error', (err: Error) => {
        this.failure ??= err;
        // a parser that failed on its own drains no more: stop the unpacking, or a paused write waits forever
        this.stopped = true;
        this.gunzip.destroy();
        resolve();
      });
    });
    parser.on('eof', () => {
      this.endMarker = true;
      this.stop();
    });
    // bytes after the gzip stream that are no gzip: once the end marker was read, reading stopped
    // there and they do not matter; met before it, the gzip is damaged and the parser, ended here,
    // says the tarball is incomplete
    this.gunzip.on('error', (err: Error) => {
      this.gzipError ??= err;
      this.stop();
    });
    this.gunzip.on('data', (chunk: Buffer) => this.unpack(chunk));
    // the whole stream unpacked without an end marker (a truncated tarball): the parser says what it makes of it
    this.gunzip.on('end', () => this.stop());
  }

  /** The end-of-archive marker has been read (or reading failed): the caller may stop reading its source. */
  get done(): boolean {
    return this.stopped;
  }

  /** Bytes unpacked so far: after end(), the whole tarball up to its end marker. */
  get unpackedBytes(): number {
    return this.unpacked;
  }

  /** Unpacks a chunk of the archive; waits while the parser is behind. Nothing happens once done. */
  async write(chunk: Uint8Array): Promise<void> {
    if (this.stopped || chunk.byteLength === 0) return;
    this.packed += chunk.byteLength;
    this.plain ??= !(chunk[0] === 0x1f && (chunk.byteLength < 2 || chunk[1] === 0x8b));
    if (this.plain) {
      if (!this.unpack(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))) await this.parserDrained();
      return;
    }
    if (!this.gunzip.write(chunk)) await firstEvent(this.gunzip, ['drain', 'close']);
  }

  /** The archive's source has ended: finishes parsing and throws the first problem met. */
  async end(): Promise<void> {
    if (this.plain) this.stop();
    else if (!this.stopped) this.gunzip.end();
    await this.finished;
    const problem = this.failure ?? (this.endMarker ? null : this.gzipError);
    if (problem) throw problem instanceof InvalidRecordError ? problem : new ArchiveRefusedError(`it is not a readable tarball (${problem.message.split('\n')[0]})`);
    if (!this.endMarker && this.unpacked === 0) throw new ArchiveRefusedError('it is empty');
  }

  /** Stops parsing with `err` as the answer. */
  fail(err: Error): void {
    this.failure ??= err;
    if (!this.stopped) {
      this.stopped = true;
      this.gunzip.destroy();
      this.parser.abort(err);
    }
  }

  /** Hands tar bytes to the parser; false when it is behind (the unpacking is paused until it drains). */
  private unpack(chunk: Buffer): boolean {
    if (this.stopped) return true;
    if (this.head !== null) {
      // the parser sniffs its first bytes across writes: a magic number split over two chunks counts
      const head = Buffer.concat([this.head, chunk]);
      if (head.byteLength < MAGIC_BYTES) {
        this.head = head;
        return true;
      }
      this.head = null;
      if (isCompressed(head)) {
        this.fail(new ArchiveRefusedError('it is compressed with something other than one layer of gzip, not a tarball'));
        return true;
      }
      chunk = head;
    }
    this.unpacked += chunk.byteLength;
    if (this.unpacked > this.maxUnpacked) {
      this.fail(new ArchiveRefusedError(`it unpacks to more than ${this.maxUnpacked} bytes`));
      return true;
    }
    if (this.unpacked > RATIO_FLOOR && this.unpacked > RATIO_LIMIT * this.packed) {
      this.fail(new ArchiveRefusedError(`it unpacks to more than ${RATIO_LIMIT} times its packed size (an archive bomb)`));
      return true;
    }
    if (this.parser.write(chunk)) return true;
    if (!this.plain) {
      this.gunzip.pause();
      this.parser.once('drain', () => this.gunzip.resume());
    }
    return false;
  }

  private parserDrained(): Promise<void> {
    return firstEvent(this.parser, ['drain', 'error', 'end']);
  }

  /** Stops reading here, as at the end marker: the caller has what it needed. */
  close(): void {
    this.stop();
  }

  /** No more input: nothing after this point is unpacked. Called from inside the parser's write, so the rest waits a turn. */
  private stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    queueMicrotask(() => {
      this.gunzip.destroy();
      // fewer bytes than a magic number: no tarball, which the parser says
      if (this.head !== null && this.head.byteLength > 0) this.parser.write(this.head);
      this.parser.end();
    });
  }
}

/** Resolves at the first of `events` on `emitter` (a stream that can take more, or will take nothing more), listening no longer. */
export function firstEvent(emitter: EventEmitter, events: readonly string[]): Promise<void> {
  return new Promise<void>((resolve) => {
    const go = () => {
      for (const e of events) emitter.off(e, go);
      resolve();
    };
    for (const e of events) emitter.on(e, go);
  });
}

/** The longest magic number isCompressed looks for. */
const MAGIC_BYTES = 4;

/** gzip, zstd and bzip2 magic numbers: a tarball's first header starts with a file name instead. */
function isCompressed(chunk: Buffer): boolean {
  return (chunk[0] === 0x1f && chunk[1] === 0x8b) || (chunk[0] === 0x28 && chunk[1] === 0xb5 && chunk[2] === 0x2f && chunk[3] === 0xfd) || (chunk[0] === 0x42 && chunk[1] === 0x5a && chunk[2] === 0x68);
}

/** Reads the gzip tarball `file` through `feed`, reading no further than it needs. */
export async function readTarFile(file: string, feed: TarFeed): Promise<void> {
  const source = createReadStream(file, { highWaterMark: 1 << 20 });
  try {
    for await (const chunk of source) {
      await feed.write(chunk as Buffer);
      if (feed.done) break;
    }
  } finally {
    source.destroy();
  }
  await feed.end();
}
