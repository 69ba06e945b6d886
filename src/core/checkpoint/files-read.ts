import { readFileSync, type Stats } from 'node:fs';
import { InputError, oneLine, SvcError, TooLargeError } from '../errors.ts';
import { checkpointFilePath, displayPath, refuseSecret, regularFileStat } from './files-path.ts';
import { rawHeadersOf } from './files-type.ts';

export type Encoded = { encoding: 'utf8' | 'base64'; content: string };
export type FileContent = Encoded & { path: string; size: number };
export type BatchEntry = (Encoded & { size: number }) | { error: string };

/** Largest file returned inline as JSON; bigger ones are streamed from file/raw. */
export const MAX_INLINE_BYTES = 10 * 1024 * 1024;
export const MAX_BATCH_PATHS = 50;
/** What one batch answer may hold in total, so fifty large files do not make a 700 MB JSON body. */
export const MAX_BATCH_BYTES = 25 * 1024 * 1024;

export type ReadLimits = { limit?: number; tooLargeHint?: string };

/** One file's content: UTF-8 text as is, anything else (a NUL, invalid UTF-8) as base64. */
export function readFileContent(root: string, rel: string, opts: ReadLimits = {}): FileContent {
  const abs = checkpointFilePath(root, rel);
  readableStat(abs, rel, opts);
  const bytes = readFileSync(abs);
  return { path: displayPath(root, abs), size: bytes.length, ...encodeBytes(bytes) };
}

/**
 * Several files at once, keyed by the paths as given. A path leaving the root refuses the whole
 * request; a missing, unreadable or oversized file is an error entry beside the others.
 */
export function readFileBatch(root: string, rels: string[], opts: ReadLimits = {}): Record<string, BatchEntry> {
  if (rels.length === 0) throw new InputError('no paths given', 'give ?paths=a,b or ?path=a&path=b');
  if (rels.length > MAX_BATCH_PATHS) throw new InputError(`${rels.length} paths asked for; at most ${MAX_BATCH_PATHS} per request`, 'split the request');
  const resolved = rels.map((rel) => ({ rel, abs: checkpointFilePath(root, rel) }));
  let budget = MAX_BATCH_BYTES;
  const entries = resolved.map(({ rel, abs }): [string, BatchEntry] => {
    try {
      const st = readableStat(abs, rel, opts);
      if (st.size > budget) {
        throw new TooLargeError(`'${rel}' was not read: the answer already holds ${formatBytes(MAX_BATCH_BYTES - budget)} of its ${formatBytes(MAX_BATCH_BYTES)} total`, 'ask for it on its own');
      }
      const bytes = readFileSync(abs);
      budget -= bytes.length;
      return [rel, { size: bytes.length, ...encodeBytes(bytes) }];
    } catch (err) {
      if (err instanceof SvcError) return [rel, { error: oneLine(err) }];
      return [rel, { error: `cannot read '${rel}': ${oneLine(err)}` }];
    }
  });
  // fromEntries defines own keys, so a path named __proto__ is a plain key like any other
  return Object.fromEntries(entries);
}

/** A file to stream as it is: its absolute path, size and the headers it is served with. */
export function rawFile(root: string, rel: string): { abs: string; size: number; headers: Record<string, string> } {
  const abs = checkpointFilePath(root, rel);
  refuseSecret(abs, rel);
  const st = regularFileStat(abs, rel);
  return { abs, size: st.size, headers: rawHeadersOf(abs) };
}

export function encodeBytes(bytes: Buffer): Encoded {
  if (!bytes.includes(0)) {
    try {
      // ignoreBOM keeps a byte-order mark in the text, so saving it back changes nothing
      return { encoding: 'utf8', content: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes) };
    } catch {
      // not UTF-8: falls through to base64
    }
  }
  return { encoding: 'base64', content: bytes.toString('base64') };
}

/** A size for a message: readable, with the exact count when it is rounded (10.0 MB can be over a 10.0 MB limit). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  const readable = n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${readable} (${n} bytes)`;
}

function readableStat(abs: string, rel: string, opts: ReadLimits): Stats {
  refuseSecret(abs, rel);
  const st = regularFileStat(abs, rel);
  const limit = opts.limit ?? MAX_INLINE_BYTES;
  if (st.size > limit) throw new TooLargeError(`'${rel}' is ${formatBytes(st.size)}, over the ${formatBytes(limit)} limit for inline content`, opts.tooLargeHint);
  return st;
}
