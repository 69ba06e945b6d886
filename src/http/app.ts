import { Elysia } from 'elysia';
import { TooLargeError } from '../core/errors.ts';
import { log } from '../core/log.ts';
import { readCappedBytes } from '../core/outbound.ts';
import { checkBodyDepth, errorResponse, HttpError, MAX_JSON_BODY, messageOf, statusOf, validationMessage } from './response.ts';

/**
 * How a route takes its body, beyond the ordinary (JSON, up to MAX_JSON_BODY, required when the
 * route has a body schema): its own size limit, and `read`: 'stream', the handler reads
 * `request.body` itself; 'optional', no body is `{}`, so the schema still checks any body sent;
 * 'form', a multipart/form-data body and nothing else.
 */
export type BodyRule = { limit?: number; read?: 'stream' | 'optional' | 'form' };

export type HttpAppOptions = {
  /** names the server in the log line of an unexpected error: `svc registry` */
  name: string;
  /** the field of an error answer: `error`, or `detail` as Letta and FastAPI answer */
  errorKey?: 'error' | 'detail';
  /** the status of a body or query its schema refuses: 400, or 422 as FastAPI answers */
  validationStatus?: number;
  /** per route pattern (`/api/upload`, `/artifact/:id`) */
  bodies?: Record<string, BodyRule>;
  /**
   * A body must be sent as application/json (415 otherwise): a web page can send a plain-text POST
   * to any server without asking, a JSON one only with the server's consent, which this one never gives.
   */
  jsonOnly?: boolean;
};

/**
 * An Elysia app as every svc server is built: bodies read up to their route's limit before any
 * parsing (413 otherwise, as JSON), JSON nested at most MAX_BODY_DEPTH deep, and every failure
 * one `{error}` (or `{detail}`) with the status statusOf gives it: a client never gets a stack
 * trace or a dropped connection. A known path asked with another method is 405 with `Allow`.
 */
export function httpApp(opts: HttpAppOptions) {
  const answer = (status: number, message: string, headers?: Record<string, string>) => {
    const res = opts.errorKey === 'detail' ? Response.json({ detail: message }, { status }) : errorResponse(status, message);
    for (const [k, v] of Object.entries(headers ?? {})) res.headers.set(k, v);
    return res;
  };
  const rules = opts.bodies ?? {};
  const app: Elysia = new Elysia({ normalize: false })
    .onParse(({ request, route, contentType }) => parseBody(request, rules[route] ?? {}, contentType, opts.jsonOnly === true))
    // before validation: a validation error describing a body thousands of levels deep would exhaust the stack
    .onTransform(({ body }) => checkBodyDepth(body))
    .onError(({ code, error, request }) => {
      switch (code) {
        case 'PARSE': {
          // what parseBody refused (413, 415, a malformed form) reaches here wrapped by Elysia
          const cause = (error as { cause?: unknown }).cause;
          if (cause instanceof Error && statusOf(cause) < 500) return answer(statusOf(cause), messageOf(cause));
          return answer(400, 'malformed request body: expected valid JSON (or the declared content type)');
        }
        case 'VALIDATION':
          return answer(opts.validationStatus ?? 400, validationMessage(error, (error as { type?: string }).type));
        case 'NOT_FOUND': {
          const path = new URL(request.url).pathname;
          const allowed = methodsOf(app, path);
          if (allowed.length > 0) return answer(405, `${request.method} is not allowed on ${path}: use ${allowed.join(' or ')}`, { allow: allowed.join(', ') });
          return answer(404, `no such endpoint: ${request.method} ${path}`);
        }
        default: {
          const status = statusOf(error);
          if (status >= 500 && status !== 503) log.error(`${opts.name}: ${request.method} ${new URL(request.url).pathname}: ${(error as Error)?.stack ?? error}`);
          return answer(status, messageOf(error));
        }
      }
    }) as unknown as Elysia;
  return app;
}

const FORM = /^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i;
const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/**
 * The body as its type declares it (JSON, a form, text, or bytes), read to at most the route's
 * limit. No body, or an empty one, is null (refused by a body schema), or `{}` where the route
 * says its body is optional. null is also what a 'stream' route gets: its body is not read here.
 */
async function parseBody(request: Request, rule: BodyRule, contentType: string | undefined, jsonOnly: boolean): Promise<unknown> {
  if (rule.read === 'stream') return null;
  const type = request.headers.get('content-type') ?? '';
  if (rule.read === 'form' && !/^multipart\/form-data\s*;/i.test(type)) {
    throw new HttpError(400, `expected a multipart/form-data body, got ${type === '' ? 'no content type' : type.split(';')[0]}: send the files as form fields`);
  }
  const none = rule.read === 'optional' ? {} : null;
  if (request.body === null) return none;
  if (jsonOnly && !JSON_TYPE.test(type)) throw new HttpError(415, 'the body must be sent as Content-Type: application/json');
  const limit = rule.limit ?? MAX_JSON_BODY;
  const bytes = await readCappedBytes(request, limit, () => new TooLargeError(`request body too large: the limit for this endpoint is ${megabytes(limit)} MB`));
  if (FORM.test(type)) {
    return new Response(bytes, { headers: { 'content-type': type } }).formData().catch((err: Error) => {
      throw new HttpError(400, `malformed ${type.split(';')[0]} body: ${err.message}`);
    });
  }
  const text = new TextDecoder().decode(bytes);
  if (contentType === undefined || contentType === '' || JSON_TYPE.test(type)) {
    if (text.trim() === '') return none;
    try {
      return JSON.parse(text);
    } catch {
      throw new HttpError(400, 'malformed request body: expected valid JSON (or the declared content type)');
    }
  }
  return type.toLowerCase().startsWith('text/') ? text : bytes;
}

const megabytes = (n: number) => Math.round((n / 1024 / 1024) * 100) / 100;

/** The methods the app answers on `path` (by its route patterns); empty when the path is unknown. */
function methodsOf(app: Elysia, path: string): string[] {
  const methods = new Set<string>();
  for (const r of app.routes) if (r.method !== 'ALL' && patternOf(r.path).test(path)) methods.add(r.method);
  return [...methods].sort();
}

const patterns = new Map<string, RegExp>();

function patternOf(route: string): RegExp {
  let re = patterns.get(route);
  if (!re) {
    const body = route
      .split('/')
      .map((part) => (part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    re = new RegExp(`^${body}$`);
    patterns.set(route, re);
  }
  return re;
}
