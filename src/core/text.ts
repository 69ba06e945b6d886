import { InputError } from './errors.ts';

/** User input fit for an error message: control characters shown as escapes, long text cut. */
export function printable(raw: string, max = 80): string {
  const shown = JSON.stringify(raw).slice(1, -1);
  return shown.length > max ? `${shown.slice(0, max - 3)}...` : shown;
}

/** Base64 as clients send it (whitespace ignored, padding optional) decoded, or an InputError naming `what`. */
export function decodeBase64(text: string, what: string, hint?: string): Buffer {
  const compact = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) throw new InputError(`${what} is not valid base64`, hint);
  return Buffer.from(compact, 'base64');
}

/** A URL as it may be shown: any user:password in it removed. */
export function withoutCredentials(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1');
}
