import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { type BackupLine, parseBackupLine } from './backup-format.ts';

/** How reading a backup went: lines that were not records, and where the archive broke off. */
export type ReadTally = { lines: number; skipped: number; damage: string | null };

/**
 * The records of a (possibly gzipped) JSON-lines file, streamed so a large backup never sits in
 * memory whole. A damaged file gives what is readable: a line that is not a record is counted in
 * `tally.skipped`, and a truncated or corrupt archive ends the stream with `tally.damage` set
 * (its last, partial line counted as skipped) instead of throwing.
 */
export async function* readBackupLines(file: string, tally: ReadTally, opts: { gzip: boolean; defaultKind?: string }): AsyncGenerator<BackupLine> {
  const raw = createReadStream(file);
  let source: Readable = raw;
  if (opts.gzip) {
    // a truncated archive still yields what was complete, then fails with 'unexpected end of file'
    const gunzip = createGunzip();
    raw.on('error', (err) => gunzip.destroy(err));
    source = raw.pipe(gunzip);
  }
  let rest = '';
  const take = function* (text: string): Generator<BackupLine> {
    for (const s of text.split('\n')) {
      if (s.trim() === '') continue;
      tally.lines++;
      const line = parseBackupLine(s, opts.defaultKind);
      if (line === null) tally.skipped++;
      else yield line;
    }
  };
  const decoder = new TextDecoder();
  try {
    for await (const chunk of source) {
      const text = rest + decoder.decode(chunk as Uint8Array, { stream: true });
      const cut = text.lastIndexOf('\n');
      rest = text.slice(cut + 1);
      yield* take(text.slice(0, cut + 1));
    }
  } catch (err) {
    tally.damage = (err as Error).message;
  } finally {
    source.destroy();
    raw.destroy();
  }
  yield* take(rest + decoder.decode());
}
