/** Wire helpers of the memory server: Letta answers errors as `{detail}`, and so do we. */
import { HttpError, json } from '../http/response.ts';

/** Request bodies above this are refused (413) before they are parsed. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

export function detail(status: number, message: string): Response {
  return json({ detail: message }, status);
}

/**
 * The body as JSON; 415 unless sent as JSON, 413 over the size cap (declared or actual), 400 when
 * it is not JSON. A web page can send another site a plain-text POST without asking; a JSON one
 * needs the site's consent (CORS preflight), which this server never gives.
 */
export async function readJson(req: Request): Promise<unknown> {
  if (!/^application\/json\s*(;|$)/i.test(req.headers.get('content-type') ?? '')) throw new HttpError(415, 'the body must be sent as Content-Type: application/json');
  const declared = Number(req.headers.get('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  let size = 0;
  const chunks: Uint8Array[] = [];
  if (req.body) {
    for await (const chunk of req.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > MAX_BODY_BYTES) throw tooLarge();
      chunks.push(chunk);
    }
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, text.trim() === '' ? 'request body is empty; expected JSON' : 'request body is not valid JSON');
  }
}

const tooLarge = () => new HttpError(413, `request body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MB`);

/** A whole number query parameter within bounds, or the default when absent. */
export function intParam(url: URL, name: string, fallback: number, max: number): number {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > max) throw new HttpError(400, `${name} must be a whole number from 1 to ${max}, got '${raw}'`);
  return n;
}

export function boolParam(url: URL, name: string, fallback: boolean): boolean {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return fallback;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw new HttpError(400, `${name} must be true or false, got '${raw}'`);
}

/** Tags as FastAPI takes a list: the parameter repeated (`tags=a&tags=b`). */
export function tagsParam(url: URL): string[] {
  return url.searchParams.getAll('tags').filter((t) => t !== '');
}


export function stringField(body: Record<string, unknown>, name: string): string {
  const v = body[name];
  if (typeof v !== 'string') throw new HttpError(422, `${name} must be a string`);
  return v;
}

export function tagsField(body: Record<string, unknown>, name = 'tags'): string[] {
  const v = body[name];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((t) => typeof t === 'string')) throw new HttpError(422, `${name} must be a list of strings`);
  return v;
}
