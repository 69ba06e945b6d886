/** Query parameters of the memory server, read as Letta's FastAPI server reads them. */
import { HttpError } from '../http/response.ts';

export const queryOf = (req: Request) => new URL(req.url).searchParams;

/** A whole number query parameter within bounds, or the default when absent. */
export function intParam(q: URLSearchParams, name: string, fallback: number, max: number): number {
  const raw = q.get(name);
  if (raw === null || raw === '') return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > max) throw new HttpError(400, `${name} must be a whole number from 1 to ${max}, got '${raw}'`);
  return n;
}

export function boolParam(q: URLSearchParams, name: string, fallback: boolean): boolean {
  const raw = q.get(name);
  if (raw === null || raw === '') return fallback;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw new HttpError(400, `${name} must be true or false, got '${raw}'`);
}

/** Tags as FastAPI takes a list: the parameter repeated (`tags=a&tags=b`). */
export function tagsParam(q: URLSearchParams): string[] {
  return q.getAll('tags').filter((t) => t !== '');
}
