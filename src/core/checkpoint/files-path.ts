import { type Stats, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { InputError, NotFoundError } from '../errors.ts';
import { realOfDeepestExisting, realOrSelf, resolveInside } from '../paths.ts';

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

/** The stat of a regular file the client asked for: 404 when missing, 400 for a directory or a device. */
export function regularFileStat(abs: string, rel: string): Stats {
  let st: Stats;
  try {
    st = statSync(abs);
  } catch {
    throw new NotFoundError(`no file '${rel}' in this checkpoint`);
  }
  if (st.isDirectory()) throw new InputError(`'${rel}' is a directory`, 'give the path of a file; GET …/files lists them');
  if (!st.isFile()) throw new InputError(`'${rel}' is not a regular file`);
  return st;
}

/**
 * Files that hold credentials: `.env` files (svc reads one from the checkpoint), private keys and
 * anything under a `secrets` directory, the same names an artifact bundle never ships. The file
 * API and the source viewer never list, return or change them; keys go through /api/env-keys.
 */
export function isSecretFile(name: string): boolean {
  return name === '.env' || name.startsWith('.env.') || /\.(pem|key)$/i.test(name) || /^id_(rsa|ed25519|ecdsa|dsa)$/.test(name);
}

/** Refuses a secret file, by the name it is asked for and by the file a link leads to. */
export function refuseSecret(abs: string, rel: string): void {
  const underSecrets = rel.split(/[\\/]/).slice(0, -1).includes('secrets');
  if (underSecrets || isSecretFile(basename(abs)) || isSecretFile(basename(realOrSelf(abs)))) {
    throw new InputError(`'${rel}' holds secrets and is not served`, 'manage keys with /api/env-keys');
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
