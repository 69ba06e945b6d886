/**
 * capture_tarball (bridge rule 8): the submission as one attempt of its reproduction left it, its
 * reproduce.log and outputs included, packed as `submission_executed_<UTC>.tar.gz` beside the
 * submission (or in tarball_dir), written atomically.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { create } from 'tar';
import { writeStreamAtomic } from '../../core/atomic.ts';

export const TARBALL_PREFIX = 'submission_executed_';

/** 2026-11-28T20:30:00.123Z → 20261128T203000Z */
export function utcStamp(at: Date): string {
  return at.toISOString().replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '');
}

/** Packs `root`'s entries (links kept as links, never followed) into `dir`; returns the tarball's path. */
export async function captureSubmission(root: string, dir: string, at: Date): Promise<string> {
  const stamp = utcStamp(at);
  let path = join(dir, `${TARBALL_PREFIX}${stamp}.tar.gz`);
  // two attempts ending within one second each keep their own tarball
  for (let n = 2; existsSync(path); n++) path = join(dir, `${TARBALL_PREFIX}${stamp}-${n}.tar.gz`);
  const entries = readdirSync(root).sort();
  await writeStreamAtomic(path, create({ gzip: true, cwd: root, portable: true }, entries) as AsyncIterable<Uint8Array>);
  return path;
}
