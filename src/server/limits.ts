import type { BodyRule } from '../http/app.ts';

/** Uploads (files, few-shot PDFs as base64) may be larger than an ordinary JSON body. */
export const UPLOAD_LIMIT_BYTES = 100 * 1024 * 1024;

/** The routes whose bodies are not an ordinary JSON body. */
export const BODIES: Record<string, BodyRule> = {
  '/api/upload': { limit: UPLOAD_LIMIT_BYTES, read: 'form' },
  '/api/fewshot/:rubric/upload': { limit: UPLOAD_LIMIT_BYTES },
  '/api/ear/:run_id/curate': { optional: true },
};

