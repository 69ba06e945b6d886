import type { Stats } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { InputError, NotFoundError } from '../errors.ts';
import { isSecretPath } from '../secret-files.ts';
import { realOfDeepestExisting, realOrSelf, resolveInside, statOrNull } from '../paths.ts';

/**
 * A file path a client names inside a checkpoint (or a node's work directory): relative, inside
 * `root` after `..` and symlinks are resolved. Returns the absolute path; refusals are 400s.
 */
export function checkpointFilePath(root: string, rel: string): string {
  if (rel.trim() === '') throw new InputError('no path given', 'give a path relative to the checkpoint');
  if (isAbsolute(rel)) throw new InputError(`path '${rel}' is absolute`, 'give a path relative to the checkpoint');
  return resolveInside(root, rel, 'path');
}

/** The path as the API reports it: relative to `root`, '/'-separated. */
export function displayPath(root: string, abs: string): string {
  return relative(root, abs).split(sep).join('/');
}

/** The stat of a regular file the client asked for: 404 when missing, 400 for a directory, a device or a hard link. */
export function regularFileStat(abs: string, rel: string): Stats {
  const st = statOrNull(abs);
  if (!st) throw new NotFoundError(`no file '${rel}' in this checkpoint`);
  if (st.isDirectory()) throw new InputError(`'${rel}' is a directory`, 'give the path of a file; GET …/files lists them');
  if (!st.isFile()) throw new InputError(`'${rel}' is not a regular file`);
  refuseHardLink(st, rel);
  return st;
}

/**
 * Refuses a secret file (core/secret-files.ts), by the path it is asked for and by where a link
 * leads: a link named notes.txt to ~/.ssh/id_ed25519 is the key.
 */
export function refuseSecret(abs: string, rel: string): void {
  const real = realOrSelf(abs);
  if (isSecretPath(rel) || isSecretPath(join(basename(dirname(dirname(real))), basename(dirname(real)), basename(real)))) {
    throw new InputError(`'${rel}' holds secrets and is not served`, 'manage keys with /api/env-keys');
  }
}

/**
 * Refuses a regular file with more than one hard link: its other name may be anywhere (a key
 * outside, `.env` beside it), and the inode does not say where. svc itself never hard-links
 * files it serves; a file a user linked in is served once it is a copy.
 */
export function refuseHardLink(st: Stats, rel: string): void {
  if (st.isFile() && st.nlink > 1) {
    throw new InputError(`'${rel}' is a hard link (${st.nlink} names for one file) and is not served: its other name may be outside the run or a secret`, 'copy the file instead of linking it');
  }
}

/**
 * Where `abs` really is, relative to the real root: directories along the way resolved, and the
 * last component too when `followLast` (a link named tree.json is not tree.json; a link to it is).
 */
export function realRelative(root: string, abs: string, followLast: boolean): string {
  const parent = dirname(abs);
  const target = (followLast ? realOfDeepestExisting(abs) : null) ?? join(realOfDeepestExisting(parent) ?? parent, basename(abs));
  return relative(realOrSelf(root), target).split(sep).join('/');
}
