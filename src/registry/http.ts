import { SvcError, oneLine } from '../core/errors.ts';

/** A JSON answer of the registry. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

/** An error answer: `{error}`, one line. */
export function fail(status: number, message: string): Response {
  return json(status, { error: message });
}

/** An error thrown while handling: an SvcError carries its status by class, anything else is a 500. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const STATUS: Record<string, number> = { InputError: 400, NotFoundError: 404, ConflictError: 409, TooLargeError: 413, UnavailableError: 503 };

export function errorAnswer(err: unknown): Response | null {
  if (err instanceof HttpError) return fail(err.status, err.message);
  if (err instanceof SvcError) return fail(STATUS[err.name] ?? 400, oneLine(err));
  return null;
}

