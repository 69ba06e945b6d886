import { InputError } from '../core/errors.ts';
import { printable } from '../core/text.ts';

/** A percent-encoded part of a request's URL, decoded; a malformed escape is the client's error (400), named by `what`. */
export function decodeUrlPart(raw: string, what: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new InputError(`${what} '${printable(raw)}' is not valid URL encoding`, 'percent-encode each byte of its UTF-8, such as %2F for a slash');
  }
}
