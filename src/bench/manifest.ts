import { mkdirSync, type Stats, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../core/atomic.ts';
import { withFileLockSync } from '../core/file-lock.ts';
import { parseLine } from '../core/json-object.ts';
import { logFor } from '../core/log.ts';
import { readTextOrNull } from '../core/paths.ts';
import { canonicalJson } from '../llm/cassette.ts';
import type { ManifestEntry } from '../schema/bench-api.ts';
import { isPaperId } from './paper-id.ts';

export const MANIFEST_FILE = 'manifest.jsonl';

/**
 * One line of the manifest: a paper, or a line that is none (not JSON, no valid paper_id), kept
 * as it was so that a rewrite never drops what someone may still repair by hand.
 */
export type ManifestLine = { entry: ManifestEntry } | { raw: string };

export type Manifest = { lines: ManifestLine[]; entries: ManifestEntry[]; byId: Map<string, ManifestEntry> };

type Cached = { ino: number; size: number; mtimeMs: number; manifest: Manifest };
/** per manifest path: listing 10,000 papers must not parse them again while the file is unchanged */
const cache = new Map<string, Cached>();
const log = logFor('bench');

export function manifestPath(dir: string): string {
  return join(dir, MANIFEST_FILE);
}

/** The manifest as it is on disk (empty when absent), from the cache while the file's stat is unchanged. */
export function readManifest(dir: string): Manifest {
  const path = manifestPath(dir);
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return manifestOf([]);
  const hit = cache.get(path);
  if (hit && sameFile(hit, st)) return hit.manifest;
  const manifest = parseManifest(readTextOrNull(path) ?? '', path);
  cache.set(path, { ...statKey(st), manifest });
  return manifest;
}

/**
 * Runs `change` on the manifest under the registry's lock and writes what it returns atomically
 * (keys sorted on every line; lines that are no paper kept where they were). `change` returning
 * null writes nothing. Changes from two processes at once are applied one after the other.
 */
export function updateManifest<T>(dir: string, change: (m: Manifest) => { lines: ManifestLine[] | null; result: T }): T {
  mkdirSync(dir, { recursive: true });
  return withFileLockSync(join(dir, '.manifest.lock'), () => {
    const { lines, result } = change(readManifest(dir));
    if (lines !== null) writeManifest(dir, lines);
    return result;
  });
}

function writeManifest(dir: string, lines: ManifestLine[]): void {
  const path = manifestPath(dir);
  const text = lines.map((l) => ('entry' in l ? canonicalJson(l.entry) : l.raw)).join('\n');
  writeFileAtomic(path, text === '' ? '' : `${text}\n`);
  const st = statSync(path);
  cache.set(path, { ...statKey(st), manifest: manifestOf(lines) });
}

function parseManifest(text: string, path: string): Manifest {
  const lines: ManifestLine[] = [];
  text.split('\n').forEach((raw, i) => {
    const value = parseLine(raw);
    if (value === undefined) return;
    if (value !== null && isEntry(value)) lines.push({ entry: value });
    else {
      log.warn(`${path} line ${i + 1} is not a paper entry: skipped, and kept in the file until repaired by hand`);
      lines.push({ raw });
    }
  });
  return manifestOf(lines);
}

/** A line counts as a paper when it names one by a valid id; other fields are shown as they are. */
function isEntry(value: Record<string, unknown>): value is ManifestEntry {
  return typeof value.paper_id === 'string' && isPaperId(value.paper_id) && typeof value.title === 'string';
}

function manifestOf(lines: ManifestLine[]): Manifest {
  const entries = lines.flatMap((l) => ('entry' in l ? [l.entry] : []));
  const byId = new Map<string, ManifestEntry>();
  for (const e of entries) if (!byId.has(e.paper_id)) byId.set(e.paper_id, e);
  return { lines, entries, byId };
}

function statKey(st: Stats): Omit<Cached, 'manifest'> {
  return { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
}

function sameFile(c: Omit<Cached, 'manifest'>, st: Stats): boolean {
  return c.ino === st.ino && c.size === st.size && c.mtimeMs === st.mtimeMs;
}
