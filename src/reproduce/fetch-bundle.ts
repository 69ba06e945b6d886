/**
 * fetch_code_bundle: the published bundle materialised where the reproduction is built, through
 * the clone's verification (every file against manifest.lock, the digest against the cited one),
 * so a tampered bundle never reaches a sandbox. A directory that already holds a reproduce.sh is
 * somebody's work and is kept unless the caller says overwrite.
 */
import { lstatSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { writeJsonAtomic } from '../core/atomic.ts';
import type { Env } from '../core/config/env-vars.ts';
import { ConflictError, InputError } from '../core/errors.ts';
import { isFileAt, resolveInside } from '../core/paths.ts';
import { printable } from '../core/text.ts';
import { cloneBundle, clonePolicy } from '../clone/clone.ts';
import { verifyTree } from '../clone/verify.ts';
import { bundleFacts } from '../paper/code-availability.ts';
import { REPRODUCE_SCRIPT } from './submission.ts';

/** What the seed stage writes into the checkpoint (ors_seed.json) and returns. */
export type SeedRecord = {
  ref: string | null;
  sha256: string | null;
  dest: string;
  /** files of the bundle (its manifest.lock aside) now in dest; null when the fetch was skipped unseen */
  files: number | null;
  verified: boolean;
  skipped: boolean;
  reason?: string;
  warnings?: string[];
};

export const SEED_RECORD_FILE = 'ors_seed.json';

export type FetchRequest = { checkpointDir: string; dest: string; ref?: string; sha256?: string; overwrite?: boolean; env: Env };

export async function fetchCodeBundle(req: FetchRequest): Promise<SeedRecord> {
  const dest = resolveInside(req.checkpointDir, req.dest, 'dest');
  if (dest === req.checkpointDir) throw new InputError('dest is the checkpoint itself', 'give a directory inside it, such as repro_sandbox');
  const known = bundleFacts(req.checkpointDir);
  const ref = blank(req.ref) ?? known.ref;
  const sha256 = (blank(req.sha256) ?? known.sha256)?.toLowerCase() ?? null;
  const record = (r: Omit<SeedRecord, 'ref' | 'sha256' | 'dest'>, digest = sha256): SeedRecord => {
    const out = { ref, sha256: digest, dest, ...r };
    writeJsonAtomic(join(req.checkpointDir, SEED_RECORD_FILE), out);
    return out;
  };
  if (!req.overwrite && isFileAt(join(dest, REPRODUCE_SCRIPT))) {
    return record({ files: null, verified: false, skipped: true, reason: `${dest}/${REPRODUCE_SCRIPT} exists; pass overwrite to fetch the bundle again` });
  }
  // nothing published (publishing off, or a dry run): there is nothing to reproduce from, which is no failure of this stage
  if (ref === null) return record({ files: null, verified: false, skipped: true, reason: 'no bundle to fetch: ref is not given and the checkpoint has no publish_record.json naming one (publish_ear off or a dry run)' });
  const policy = clonePolicy(req.env);
  if (policy === 'deny') throw new InputError(`fetching ${printable(ref)} is refused by SVC_REPRO_CLONE_POLICY=deny`, 'set SVC_REPRO_CLONE_POLICY to passthrough or warn to let the reproduction fetch its bundle');
  const warnings = policy === 'warn' ? [`SVC_REPRO_CLONE_POLICY=warn: fetched ${ref} into the reproduction sandbox`] : [];
  if (!req.overwrite && !emptyOrAbsent(dest)) {
    // a fetch done before (a resumed pipeline): the same verified bundle is kept as it is
    const same = await verifyTree(dest).catch(() => null);
    if (same && (sha256 === null || same.bundle_sha256 === sha256)) {
      return record({ files: same.file_count, verified: true, skipped: true, reason: `${dest} already holds the verified bundle`, ...(warnings.length ? { warnings } : {}) }, same.bundle_sha256);
    }
    throw new ConflictError(`dest ${dest} is not empty and is not the bundle`, 'pass overwrite to replace it, or give another dest');
  }
  // cloned beside dest, then swapped in: a refused bundle leaves dest as it was
  const scratch = mkdtempSync(join(dirname(dest), `.${basename(dest)}.fetch-`));
  try {
    const cloned = await cloneBundle(ref, join(scratch, 'bundle'), {
      env: req.env,
      checkpointDir: req.checkpointDir,
      cwd: req.checkpointDir,
      ...(sha256 ? { expectSha256: sha256 } : {}),
      warn: (line) => warnings.push(line),
    });
    rmSync(dest, { recursive: true, force: true });
    renameSync(cloned.dest, dest);
    // the digest the clone recomputed: the cited one when given (it had to match), else the bundle's own
    return record({ files: cloned.file_count, verified: true, skipped: false, ...(warnings.length ? { warnings } : {}) }, cloned.bundle_sha256);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function blank(v: string | undefined): string | null {
  return v === undefined || v.trim() === '' ? null : v.trim();
}

function emptyOrAbsent(dir: string): boolean {
  const st = lstatSync(dir, { throwIfNoEntry: false });
  if (st === undefined) return true;
  if (st.isSymbolicLink() || !st.isDirectory()) throw new ConflictError(`dest ${dir} is not a directory`, 'give a directory inside the checkpoint');
  return readdirSync(dir).length === 0;
}
