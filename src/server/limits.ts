import type { BodyRule } from '../http/app.ts';

/** Uploads (files, few-shot PDFs as base64) may be larger than an ordinary JSON body. */
export const UPLOAD_LIMIT_BYTES = 100 * 1024 * 1024;

/** The routes whose bodies are not an ordinary JSON body. */
export const BODIES: Record<string, BodyRule> = {
  '/api/upload': { limit: UPLOAD_LIMIT_BYTES, read: 'form' },
  '/api/fewshot/:rubric/upload': { limit: UPLOAD_LIMIT_BYTES },
  '/api/ear/:run_id/curate': { read: 'optional' },
};

/**
 * Options of every query schema: parameters it does not name pass (a cache-busting `?_=`, the
 * `token` of an event stream), where a body's unknown field is refused.
 */
export const QUERY = { additionalProperties: true };
