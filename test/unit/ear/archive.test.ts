import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';
import { ArchiveRefusedError, readTarFile, TarFeed } from '../../../src/ear/archive.ts';
import { rawTarball } from '../../support/bundle.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

let dir: string;
let good: string;
beforeEach(async () => {
  dir = tempDir();
  good = join(dir, 'good.tar.gz');
  await rawTarball(good, [
    { path: 'a.txt', body: 'alpha' },
    { path: 'b.txt', body: 'beta' },
  ]);
});
afterEach(() => removeDir(dir));

let unpacked = 0;

/** The entry paths a TarFeed hands its parser, or the refusal; `unpacked` is what it unpacked. */
async function read(file: string, maxUnpacked = Number.POSITIVE_INFINITY): Promise<string[] | Error> {
  const paths: string[] = [];
  const parser = new Parser({ strict: true, onReadEntry: (e: ReadEntry) => (paths.push(e.path), e.resume()) });
  const feed = new TarFeed(parser, maxUnpacked);
  try {
    await readTarFile(file, feed);
    return paths;
  } catch (err) {
    return err as Error;
  } finally {
    unpacked = feed.unpackedBytes;
  }
}

const write = (name: string, bytes: Uint8Array) => {
  writeFileSync(join(dir, name), bytes);
  return join(dir, name);
};

describe('TarFeed', () => {
  test('a gzip tarball and the same tarball uncompressed read alike', async () => {
    expect(await read(good)).toEqual(['a.txt', 'b.txt']);
    expect(await read(write('plain.tar', gunzipSync(readFileSync(good))))).toEqual(['a.txt', 'b.txt']);
  });

  test('a gzip member after the end marker is never unpacked, even one that would unpack to gigabytes', async () => {
    const zeros = gzipSync(Buffer.alloc(64 << 20), { level: 9 });
    const members = [readFileSync(good), ...Array.from({ length: 64 }, () => zeros)];
    expect(await read(write('then.tar.gz', Buffer.concat(members)))).toEqual(['a.txt', 'b.txt']);
    // of the 4 GiB of zeros, no more than the unpacking's own buffers went by
    expect(unpacked).toBeLessThan(1 << 20);
  });

  test('bytes after the gzip stream that are no gzip in the same read: refused like any damaged gzip, at once', async () => {
    const err = await read(write('junk.tar.gz', Buffer.concat([readFileSync(good), Buffer.from('trailing junk that is not gzip')])));
    expect(err).toBeInstanceOf(ArchiveRefusedError);
  });

  test('more unpacked bytes than allowed is refused', async () => {
    const err = await read(good, 600);
    expect(err).toBeInstanceOf(ArchiveRefusedError);
    expect((err as Error).message).toContain('unpacks to more than 600 bytes');
  });

  test('a compressed stream inside the gzip is refused, not unpacked by the parser on its own', async () => {
    const nested = write('nested.tar.gz', gzipSync(readFileSync(good)));
    expect(((await read(nested)) as Error).message).toContain('other than one layer of gzip');
    const zstdMagic = write('zstd.tar.gz', gzipSync(Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), Buffer.alloc(2000)])));
    expect(((await read(zstdMagic)) as Error).message).toContain('other than one layer of gzip');
  });

  test('a magic number split across the first chunks is still seen: the parser would put them together', async () => {
    const feed = new TarFeed(new Parser({ strict: true, onReadEntry: (e: ReadEntry) => e.resume() }), Number.POSITIVE_INFINITY);
    await feed.write(Buffer.from([0x28]));
    await feed.write(Buffer.concat([Buffer.from([0xb5, 0x2f, 0xfd]), Buffer.alloc(2000)]));
    const err = await feed.end().then(() => null, (e: Error) => e);
    expect(err).toBeInstanceOf(ArchiveRefusedError);
    expect(err?.message).toContain('other than one layer of gzip');
  });

  test('a parser that fails on its own while the unpacking waits for it (a full disk) ends the read, refused', async () => {
    const big = randomBytes(32 << 20);
    const file = join(dir, 'big.tar.gz');
    await rawTarball(file, [{ path: 'a.bin', body: big }]);
    // the entry is never read: the parser holds the unpacking back, then fails as a file write would
    const parser: Parser = new Parser({ strict: true, onReadEntry: (e: ReadEntry) => (e.pause(), setTimeout(() => parser.abort(new Error('no space left on device')), 20)) });
    const err = await readTarFile(file, new TarFeed(parser, Number.POSITIVE_INFINITY)).then(() => null, (e: Error) => e);
    expect(err).toBeInstanceOf(ArchiveRefusedError);
    expect(err?.message).toContain('no space left on device');
  });

  test('empty, truncated or not an archive at all: refused in one line, never hanging', async () => {
    const bytes = readFileSync(good);
    for (const [name, body] of [
      ['empty', Buffer.alloc(0)],
      ['three bytes', Buffer.from('tar')],
      ['truncated', bytes.subarray(0, bytes.length - 30)],
      ['text', Buffer.from('this is not an archive\n'.repeat(100))],
      ['gzip of text', gzipSync(Buffer.from('not a tarball either\n'.repeat(100)))],
    ] as const) {
      const err = await read(write(`${name}.bin`, body));
      expect([name, err instanceof ArchiveRefusedError]).toEqual([name, true]);
      expect((err as Error).message).not.toContain('\n');
    }
  });
});
