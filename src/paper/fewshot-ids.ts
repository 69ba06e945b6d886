import { InputError } from '../core/errors.ts';

/** Longest rubric or example id accepted; ids become file names. */
export const MAX_ID_LENGTH = 128;

/**
 * A rubric or example id as the file system will see it: `../` sequences and slashes are
 * removed, then everything but letters, digits, `_` and `-`. What is left can only name an entry
 * directly inside its directory. An id with nothing left, or a very long one, is refused.
 */
export function cleanId(raw: string, what: 'rubric' | 'example'): string {
  let s = raw;
  // removing one `../` can join the characters around it into another
  for (let prev = ''; prev !== s; ) {
    prev = s;
    s = s.replaceAll('../', '').replaceAll('..\\', '');
  }
  const id = s.replace(/[/\\]/g, '').replace(/[^A-Za-z0-9_-]/g, '');
  if (id === '') throw new InputError(`${what} id '${raw}' is empty once reduced to letters, digits, _ and -`, what === 'rubric' ? 'give a rubric id such as neurips' : 'give an example id such as attention');
  if (id.length > MAX_ID_LENGTH) throw new InputError(`${what} id is longer than ${MAX_ID_LENGTH} characters`);
  return id;
}
