import { ConflictError, InputError, InvalidRecordError, LimitReachedError, NotFoundError, oneLine, SvcError, TooLargeError, UnavailableError, UpstreamAnswerError } from '../core/errors.ts';

/** An error with its HTTP status, for conditions that exist only on the wire (a missing token). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** POST bodies other than uploads; the same limit the reference dashboard used. */
export const MAX_JSON_BODY = 10 * 1024 * 1024;

export function json(data: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(data), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
}

export function errorResponse(status: number, message: string): Response {
  return json({ error: message }, status);
}

/** The status for an error thrown by a domain function: 400 input, 404 unknown, 409 conflict, 413 too large, 422 unusable file, 503 missing tool. */
export function statusOf(err: unknown): number {
  if (err instanceof HttpError) return err.status;
  if (err instanceof NotFoundError) return 404;
  if (err instanceof TooLargeError) return 413;
  if (err instanceof ConflictError) return 409;
  if (err instanceof UnavailableError) return 503;
  // the model (or another service) answered, but not with what was asked for
  if (err instanceof UpstreamAnswerError) return 502;
  // the budget is spent
  if (err instanceof LimitReachedError) return 402;
  // the request was fine; the file it names is not usable
  if (err instanceof InvalidRecordError) return 422;
  if (err instanceof InputError) return 400;
  const code = (err as NodeJS.ErrnoException)?.code;
  // a path the request named that the file system cannot take
  if (code === 'ENAMETOOLONG' || code === 'ELOOP' || code === 'ENOTDIR') return 400;
  if (code === 'EACCES' || code === 'EPERM') return 403;
  return 500;
}

/** One line for the error body; internal errors say so instead of leaking a stack. */
export function messageOf(err: unknown): string {
  if (err instanceof HttpError || err instanceof SvcError) return oneLine(err);
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code && statusOf(err) < 500) return FS_ERRORS[code] ?? code;
  return `internal error: ${oneLine(err)}`;
}

const FS_ERRORS: Record<string, string> = {
  ENAMETOOLONG: 'a name in the path is too long',
  ELOOP: 'the path has too many symbolic links',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
};

type ValidationLike = { all?: { path?: string; message?: string; summary?: string; schema?: { anyOf?: { const?: unknown }[] } }[]; type?: string; message?: string };

/** Elysia's validation error as one readable line: `body.max_nodes: Expected integer`. */
export function validationMessage(err: unknown, where = 'body'): string {
  const first = (err as ValidationLike)?.all?.[0];
  if (!first) return `invalid ${where}`;
  const path = (first.path ?? '').split('/').filter(Boolean).join('.');
  // a union of literals reads as its choices, not as "one of: 'string', 'string'"
  const choices = (first.schema?.anyOf ?? []).map((s) => s.const).filter((c) => c !== undefined);
  const why = choices.length > 0 ? `must be one of ${choices.join(', ')}` : (first.message ?? first.summary ?? 'invalid value');
  return `${where}${path ? `.${path}` : ''}: ${why}`;
}

/** Deeper than any settings or workflow document; deeper bodies would only exhaust the stack. */
export const MAX_BODY_DEPTH = 32;

/** Refuses a JSON body nested deeper than MAX_BODY_DEPTH, without recursion. */
export function checkBodyDepth(body: unknown): void {
  // bytes and forms are flat; Object.values of a 100 MB byte array would be a 100-million-entry array
  if (body === null || typeof body !== 'object' || ArrayBuffer.isView(body) || body instanceof ArrayBuffer || body instanceof FormData) return;
  let level: unknown[] = [body];
  for (let depth = 1; level.length > 0; depth++) {
    if (depth > MAX_BODY_DEPTH) throw new InputError(`the request body is nested more than ${MAX_BODY_DEPTH} levels deep`);
    level = level.flatMap((v) => (v !== null && typeof v === 'object' ? Object.values(v as object).filter((c) => c !== null && typeof c === 'object') : []));
  }
}
