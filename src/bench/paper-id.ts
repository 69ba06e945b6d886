import { randomBytes } from 'node:crypto';
import { InputError } from '../core/errors.ts';
import { printable } from '../core/text.ts';

export const PAPER_ID_MAX = 64;
const VALID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * A paper id from what the user gave: every run of characters outside `[A-Za-z0-9._-]` becomes one
 * `_`, and the result is cut to 64 characters. Nothing usable left (or
 * only dots, which would name the papers directory or its parent) gives 12 random hex digits.
 */
export function sanitizePaperId(raw: string): string {
  const id = raw
    .trim()
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .slice(0, PAPER_ID_MAX);
  return id === '' || /^[._]*$/.test(id) ? randomBytes(6).toString('hex') : id;
}

/** True for an id sanitizePaperId could have made, and so a safe directory name. */
export function isPaperId(id: string): boolean {
  return VALID.test(id) && !/^\.+$/.test(id);
}

/** An id given to look a paper up by: refused when it is none sanitizePaperId makes, before it names a path. */
export function requirePaperId(id: string): string {
  if (!isPaperId(id)) throw new InputError(`'${printable(id)}' is not a paper id`, 'a paper id is 1 to 64 letters, digits, dots, underscores or hyphens');
  return id;
}
