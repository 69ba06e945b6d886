import { SvcError, oneLine } from '../core/errors.ts';
import { HttpError, json } from '../http/response.ts';

/** An error answer of the registry: `{error}`, one line. */
export function fail(status: number, message: string): Response {
  return json({ error: message }, status);
}

/** The registry's statuses by error class; any other SvcError is bad input. */
const STATUS: Record<string, number> = { InputError: 400, NotFoundError: 404, ConflictError: 409, TooLargeError: 413, UnavailableError: 503 };

/** The answer to an error thrown while handling; null for an unexpected one (a 500). */
export function errorAnswer(err: unknown): Response | null {
  if (err instanceof HttpError) return fail(err.status, err.message);
  if (err instanceof SvcError) return fail(STATUS[err.name] ?? 400, oneLine(err));
  return null;
}
