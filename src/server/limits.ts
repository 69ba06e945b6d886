import { MAX_JSON_BODY } from '../http/response.ts';

/** Uploads (files, few-shot PDFs as base64) may be larger than an ordinary JSON body. */
export const UPLOAD_LIMIT_BYTES = 100 * 1024 * 1024;

const UPLOAD_PATHS = [/^\/api\/upload$/, /^\/api\/fewshot\/[^/]+\/upload$/];

/** The largest request body a path accepts. */
export function bodyLimitFor(pathname: string): number {
  return UPLOAD_PATHS.some((p) => p.test(pathname)) ? UPLOAD_LIMIT_BYTES : MAX_JSON_BODY;
}
