import { closeSync, lstatSync, openSync, readdirSync, readFileSync, readSync, realpathSync, type Stats, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { InputError } from './errors.ts';

/**
 * The one guard for user-supplied paths. Resolves `userPath` against `root` and refuses anything
 * that lands outside it: `..` segments, absolute paths elsewhere, and symlinks that lead out.
 * Returns the absolute path (not symlink-resolved) inside root.
 */
export function resolveInside(root: string, userPath: string, what = 'path'): string {
  if (userPath.includes('\0')) throw new InputError(`${what} contains a NUL byte`);
  const rootAbs = resolve(root);
  const target = isAbsolute(userPath) ? resolve(userPath) : resolve(rootAbs, userPath);
  if (!isWithin(rootAbs, target)) throw outside(what, userPath, root);
  const rootReal = realOrSelf(rootAbs);
  const real = realOfDeepestExisting(target);
  if (real === null || !isWithin(rootReal, real)) throw outside(what, userPath, root);
  return target;
}

/** One directory entry's name, as ids in URLs are: not `.` or `..`, no separator, no NUL. */
export function isPlainName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !/[/\\\0]/.test(name);
}

/** A run or node id as svc and the reference implementation make them: letters, digits, `.`, `_`, `-`, no `..`. */
export function isSafeId(id: string): boolean {
  return typeof id === 'string' && id.length <= 255 && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id) && !id.includes('..');
}

/** True when `child` is `parent` or lies below it (lexically). */
export function isWithin(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function outside(what: string, userPath: string, root: string): InputError {
  return new InputError(`${what} '${userPath}' is outside ${root}`, 'give a path inside it');
}

/** The path with symlinks resolved, or the path itself when it cannot be resolved (absent, dangling). */
export function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/**
 * realpath of the longest existing prefix, with the missing tail appended;
 * null for a dangling symlink, whose target could be anywhere.
 */
export function realOfDeepestExisting(p: string): string | null {
  let head = p;
  const tail: string[] = [];
  while (!exists(head)) {
    const parent = dirname(head);
    if (parent === head) break;
    tail.unshift(head.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
    head = parent;
  }
  try {
    return join(realpathSync(head), ...tail);
  } catch {
    return null;
  }
}

/** True when something is at `p`, a dangling symlink included. */
export function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** The path's stat, or null when it is absent or cannot be examined. */
export function statOrNull(path: string): Stats | null {
  try {
    return statSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/** Up to `length` bytes of a file from byte `start` (fewer at its end), opened with `flags` (O_NOFOLLOW refuses a link); throws when it cannot be read. */
export function readRange(file: string, start: number, length: number, flags: string | number = 'r'): Buffer {
  const fd = openSync(file, flags);
  try {
    const buf = Buffer.alloc(length);
    return buf.subarray(0, readSync(fd, buf, 0, length, start));
  } finally {
    closeSync(fd);
  }
}

/** A file's text, or null when it cannot be read (absent, a directory, not permitted). */
export function readTextOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** The names in a directory, or null when it cannot be read (absent, not a directory, not permitted). */
export function readdirOrNull(dir: string): string[] | null {
  try {
    return readdirSync(dir);
  } catch {
    return null;
  }
}

/** A regular file at `p` (links followed); false when absent or unreadable. */
export function isFileAt(p: string): boolean {
  return statOrNull(p)?.isFile() ?? false;
}
