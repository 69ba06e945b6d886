import { randomUUID } from 'node:crypto';
import { envVar } from '../core/config/env-vars.ts';
import { NotFoundError } from '../core/errors.ts';
import { isMapping } from '../core/values.ts';
import { HttpError } from '../http/response.ts';

/**
 * Names of settings that say where svc sends requests (and so where keys and bundles travel): the
 * variables the table marks so (`SVC_HOSTING_DOI_API`, `SVC_REGISTRIES_FILE`, ...), and by name
 * any `*_host`, `*_url`, `*_endpoint`, `*_api`, `*_api_base` (`localllm_host`, `llm.base_url`,
 * a publish backend's `api_url`, variables of other tools such as `OLLAMA_HOST`), and the
 * workflow's `web.allow_private` and `web.allow_hosts`, which open the local network to fetch_url.
 */
export function isRoutingKey(name: string): boolean {
  return envVar(name)?.routing === true || /(^|_)(host|url|endpoint|api|api_base)$/i.test(name) || /^allow_(private|hosts)$/i.test(name);
}

/**
 * The dotted paths of routing keys that `next` (a request body, or the document it would become)
 * sets to something other than what `current` holds at the same place, inside lists too.
 */
export function routingChanges(next: unknown, current: unknown, prefix = ''): string[] {
  // lists are compared item by item: a stage of a pipeline, a registry of a list, may carry a URL
  if (Array.isArray(next)) return next.flatMap((item, i) => routingChanges(item, Array.isArray(current) ? current[i] : undefined, `${prefix}[${i}]`));
  if (!isMapping(next)) return [];
  const here = isMapping(current) ? current : {};
  return Object.entries(next).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isRoutingKey(key)) return sameValue(value, here[key]) ? [] : [path];
    return routingChanges(value, here[key], path);
  });
}

function sameValue(a: unknown, b: unknown): boolean {
  const blank = (v: unknown) => v === undefined || v === null || v === '';
  return (blank(a) && blank(b)) || JSON.stringify(a) === JSON.stringify(b);
}

/** A change a foreign page asked for, waiting for the user's answer in the dashboard. */
type Held = { id: string; origin: string; method: string; path: string; body: string; keys: string[]; at: number };

/** Held changes expire: an answer long after the request would surprise the page that sent it. */
const HOLD_MS = 10 * 60_000;
/** More than this many waiting changes is a page flooding the list; the oldest are dropped. */
const MAX_HELD = 20;

/**
 * A page on another origin that has the token may use the API, but may not change where svc sends
 * its requests: a stolen token must not redirect the user's API keys. Such a change is held, and
 * applied only when the user approves it in the dashboard itself (a page of this server).
 */
export class RoutingGuard {
  private readonly foreign = new WeakMap<Request, string>();
  private readonly approved = new WeakSet<Request>();
  private readonly held = new Map<string, Held>();
  /** Runs an approved request through the app; set once the app exists. */
  replay: ((req: Request) => Promise<Response>) | null = null;

  /** Marks a request as sent by a page of `origin`, neither loopback nor listed. */
  markForeign(req: Request, origin: string): void {
    this.foreign.set(req, origin);
  }

  isForeign(req: Request): boolean {
    return this.foreign.has(req);
  }

  /**
   * Refuses (403) a foreign page's request that changes the routing keys `keys`, holding it for
   * the user to approve; a request the user approved, or one from this machine, passes.
   */
  check(req: Request, keys: string[], body: unknown): void {
    const origin = this.foreign.get(req);
    if (origin === undefined || keys.length === 0 || this.approved.has(req)) return;
    this.expire();
    const url = new URL(req.url);
    const id = randomUUID();
    this.held.set(id, { id, origin, method: req.method, path: url.pathname + url.search, body: JSON.stringify(body), keys, at: Date.now() });
    for (const old of [...this.held.keys()].slice(0, Math.max(0, this.held.size - MAX_HELD))) this.held.delete(old);
    throw new HttpError(
      403,
      `a page of ${origin} may not change where svc sends requests (${keys.join(', ')}); the change is held until you approve it in the dashboard on this machine (confirmation ${id})`,
    );
  }

  /** The changes waiting for an answer, newest first. */
  list(): { id: string; origin: string; method: string; path: string; keys: string[]; at: string }[] {
    this.expire();
    return [...this.held.values()].reverse().map((h) => ({ id: h.id, origin: h.origin, method: h.method, path: h.path, keys: h.keys, at: new Date(h.at).toISOString() }));
  }

  /** Approves (the held request runs now, and its answer is returned) or rejects a held change. */
  async answer(id: string, approve: boolean): Promise<Response | { ok: true; rejected: string }> {
    this.expire();
    const h = this.held.get(id);
    if (!h) throw new NotFoundError(`no change waiting for confirmation with id '${id}'`, 'it was answered already, or expired after 10 minutes');
    this.held.delete(id);
    if (!approve) return { ok: true, rejected: id };
    if (!this.replay) throw new Error('the routing guard has no app to run the request');
    // the body was parsed once; it is replayed as the JSON it became, whatever type the page declared
    const req = new Request(`http://127.0.0.1${h.path}`, { method: h.method, headers: { 'content-type': 'application/json' }, body: h.body });
    this.approved.add(req);
    return this.replay(req);
  }

  private expire(): void {
    const now = Date.now();
    for (const [id, h] of this.held) if (now - h.at > HOLD_MS) this.held.delete(id);
  }
}
