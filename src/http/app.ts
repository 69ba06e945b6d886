import { Elysia } from 'elysia';
import { SvcError, TooLargeError } from '../core/errors.ts';
import { logFor } from '../core/log.ts';
import { readCappedBytes } from '../core/outbound.ts';
import { checkBodyDepth, errorResponse, HttpError, MAX_JSON_BODY, messageOf, statusOf, validationMessage } from './response.ts';

/**
 * How a route takes its body, beyond the ordinary (as its type declares, up to MAX_JSON_BODY,
 * required when the route has a body schema): its own size `limit`; `read`: 'stream', the handler
 * reads `request.body` itself; 'form', a multipart/form-data body and nothing else; 'json', JSON
 * whatever type it is declared as (`curl -d` declares a form); `optional`: no body is `{}`, so the
 * schema still checks any body sent.
 */
export type BodyRule = { limit?: number; read?: 'stream' | 'form' | 'json'; optional?: boolean };

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
          // a condition svc names (a full disk) is its message; anything else is a defect, logged with its stack
          if (status >= 500 && !(error instanceof SvcError)) logFor(opts.name).error(`${request.method} ${new URL(request.url).pathname}: ${(error as Error)?.stack ?? error}`);
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
  const form = rule.read === 'form';
  if (form && !/^multipart\/form-data\s*;/i.test(type)) {
    throw new HttpError(400, `expected a multipart/form-data body, got ${type === '' ? 'no content type' : type.split(';')[0]}: send the files as form fields`);
  }
  if (request.body === null) {
    if (form) throw new HttpError(400, 'the form is empty: send the files as form fields');
    return rule.optional ? {} : null;
  }
  if (jsonOnly && !JSON_TYPE.test(type)) throw new HttpError(415, 'the body must be sent as Content-Type: application/json');
  const limit = rule.limit ?? MAX_JSON_BODY;
  const bytes = await readCappedBytes(request, limit, () => new TooLargeError(`request body too large: the limit for this endpoint is ${megabytes(limit)} MB`));
  if (FORM.test(type) && rule.read !== 'json') {
    return new Response(bytes, { headers: { 'content-type': type } }).formData().catch((err: Error) => {
      throw new HttpError(400, `malformed ${type.split(';')[0]} body: ${err.message}`);
    });
  }
  const json = rule.read === 'json' || contentType === undefined || contentType === '' || JSON_TYPE.test(type);
  if (!json && !type.toLowerCase().startsWith('text/')) return bytes;
  const text = new TextDecoder().decode(bytes);
  if (!json) return text;
  if (text.trim() === '') return rule.optional ? {} : null;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'malformed request body: expected valid JSON (or the declared content type)');
  }
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
    // Elysia answers a path with a trailing slash as the path without
    re = new RegExp(`^${body}/?$`);
    patterns.set(route, re);
  }
  return re;
}
