import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { type Env, envValue } from '../core/config/env-vars.ts';
import { ConflictError, InputError, InvalidRecordError } from '../core/errors.ts';
import { extractTarball } from './extract.ts';
import { parseRef } from './ref.ts';
import { BUNDLE_ASSET, placeArtifact } from './resolve.ts';
import { verifyTree } from './verify.ts';
import { log } from '../core/log.ts';

export type CloneOptions = {
  env: Env;
  /** --expect-sha256: the bundle digest the clone must have */
  expectSha256?: string;
  /** --no-extract: dest receives the verified archive (dest/bundle.tar.gz) instead of the tree */
  noExtract?: boolean;
  /** --registry: a registries-file entry by name or URL, for svc://<id> */
  registry?: string;
  /** --token: the name of an environment variable holding the token, else the token itself */
  token?: string;
  checkpointDir?: string;
  cwd?: string;
  /** where warnings go (default stderr) */
  warn?: (line: string) => void;
};

export type CloneResult = { ref: string; dest: string; bundle_sha256: string; file_count: number; manifest_sha256: string; extracted: boolean };

export const CLONE_POLICIES = ['passthrough', 'warn', 'deny'] as const;
export type ClonePolicy = (typeof CLONE_POLICIES)[number];

/**
 * SVC_REPRO_CLONE_POLICY: what to do with a clone that is not pinned by --expect-sha256. Without an
 * expected digest a clone only proves the bundle agrees with its own manifest.lock, not that it is
 * the bundle a paper cites. passthrough (default) allows it, warn allows it with a warning, deny refuses
 * it before anything is downloaded.
 */
export function clonePolicy(env: Env): ClonePolicy {
  const v = (envValue(env, 'SVC_REPRO_CLONE_POLICY') ?? 'passthrough').toLowerCase();
  if (!(CLONE_POLICIES as readonly string[]).includes(v)) throw new InputError(`SVC_REPRO_CLONE_POLICY=${v} is not one of ${CLONE_POLICIES.join(', ')}`);
  return v as ClonePolicy;
}

/** --token: an environment variable's name when one by that name is set, else the literal token. */
export function tokenFrom(arg: string | undefined, env: Env): string | undefined {
  if (arg === undefined || arg === '') return undefined;
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(arg)) {
    const v = env[arg];
    if (v !== undefined && v !== '') return v;
  }
  return arg;
}

/** SVC_CLONE_HTTP_TIMEOUT: seconds without data before a download fails (default 60). */
export function cloneTimeoutMs(env: Env): number {
  const raw = env.SVC_CLONE_HTTP_TIMEOUT;
  if (raw === undefined || raw === '') return 60_000;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new InputError(`SVC_CLONE_HTTP_TIMEOUT=${raw} is not a positive number of seconds`);
  return Math.round(n * 1000);
}

/** Temporary directories of clones in progress, for removal when the process is interrupted. */
const inProgress = new Set<string>();

/** Removes the temporary directories of clones still in progress (a signal handler's cleanup). */
export function removeClonesInProgress(): void {
  for (const d of inProgress) rmSync(d, { recursive: true, force: true });
  inProgress.clear();
}

/**
 * Refuses a destination that exists and is not an empty directory. A link is refused whatever it
 * leads to: the clone is renamed into place, and a rename replaces no link with a directory.
 */
function checkDest(dest: string): void {
  const st = lstatSync(dest, { throwIfNoEntry: false });
  if (st === undefined) return;
  if (st.isSymbolicLink()) throw new ConflictError(`destination ${dest} is a symbolic link (to ${readlinkSync(dest)})`, 'give the directory it leads to, or a new name');
  if (!st.isDirectory() || readdirSync(dest).length > 0) throw new ConflictError(`destination ${dest} already exists and is not empty`, 'choose another destination or remove it');
}

/**
 * Clone a bundle with the spec's six verification steps: (1) the resolver places the artifact in a
 * temporary directory; (2) it is extracted into a sibling temporary directory; (3) every file's
 * SHA-256 is compared with manifest.lock and no unlisted file may be present; (4) the bundle digest is
 * recomputed and compared with the declared one; (5) with expectSha256 it must equal the recomputed
 * digest; (6) only then is the result renamed to `dest`. Any failure leaves no destination and no
 * temporary directory. The temporary directory sits beside `dest`, so the rename is atomic.
 */
export async function cloneBundle(ref: string, dest: string, opts: CloneOptions): Promise<CloneResult> {
  const parsed = parseRef(ref);
  const expect = opts.expectSha256?.toLowerCase();
  if (expect !== undefined && !/^[0-9a-f]{64}$/.test(expect)) throw new InputError(`--expect-sha256 ${opts.expectSha256} is not a 64-hex SHA-256`);
  const policy = clonePolicy(opts.env);
  if (expect === undefined && policy !== 'passthrough') {
    const msg = `cloning ${ref} without --expect-sha256: the bundle is checked only against its own manifest.lock`;
    if (policy === 'deny') throw new InputError(`${msg}; refused by SVC_REPRO_CLONE_POLICY=deny`, 'pass --expect-sha256 with the digest the paper cites');
    (opts.warn ?? ((l: string) => log.warn(l)))(msg);
  }
  const timeoutMs = cloneTimeoutMs(opts.env);
  const target = resolve(opts.cwd ?? process.cwd(), dest);
  checkDest(target);
  const parent = dirname(target);
  mkdirSync(parent, { recursive: true });
  const work = mkdtempSync(join(parent, `.${basename(target)}.clone-`));
  inProgress.add(work);
  try {
    const fetched = join(work, 'artifact');
    const tree = join(work, 'tree');
    mkdirSync(fetched);
    mkdirSync(tree);
    const archive = join(fetched, BUNDLE_ASSET);
    await placeArtifact(parsed, archive, { env: opts.env, registry: opts.registry, token: tokenFrom(opts.token, opts.env), checkpointDir: opts.checkpointDir, cwd: opts.cwd, timeoutMs });
    await extractTarball(archive, tree);
    const v = await verifyTree(tree);
    if (expect !== undefined && v.bundle_sha256 !== expect)
      throw new InvalidRecordError(`bundle digest mismatch: expected ${expect}, the bundle is ${v.bundle_sha256}`, 'the bundle is not the one cited; nothing was kept');
    // the destination may have been taken while we downloaded
    checkDest(target);
    if (opts.noExtract) {
      rmSync(tree, { recursive: true, force: true });
      renameSync(fetched, target);
    } else {
      renameSync(tree, target);
    }
    return { ref, dest: target, bundle_sha256: v.bundle_sha256, file_count: v.file_count, manifest_sha256: v.manifest_sha256, extracted: !opts.noExtract };
  } finally {
    rmSync(work, { recursive: true, force: true });
    inProgress.delete(work);
  }
}

/**
 * Verify a bundle without keeping it (the dashboard's clone-verify): the same steps into a temporary
 * directory that is removed afterwards.
 */
export async function verifyBundle(ref: string, opts: CloneOptions & { tmpRoot: string }): Promise<CloneResult> {
  mkdirSync(opts.tmpRoot, { recursive: true });
  // mkdtemp: a new name only this user can enter, whoever else can write to tmpRoot
  const scratch = mkdtempSync(join(opts.tmpRoot, 'svc-clone-verify-'));
  try {
    return await cloneBundle(ref, join(scratch, 'bundle'), { ...opts, noExtract: false });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
