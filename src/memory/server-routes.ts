import { version } from '../../package.json';
import type { MemoryStore, ScoredPassageRecord, TagMatch } from './store.ts';
import { HttpError, json } from '../http/response.ts';
import { isMapping } from '../core/values.ts';
import { boolParam, detail, intParam, readJson, stringField, tagsField, tagsParam } from './server-http.ts';

/** The most passages one list, search or batch add takes. */
export const MAX_PAGE = 10_000;

type Route = { method: string; path: RegExp; handle: (store: MemoryStore, req: Request, url: URL, params: string[]) => Promise<Response> | Response };

const ID = '([^/]+)';
const AGENT = `^/v1/agents/${ID}`;

/**
 * The subset of Letta's REST API that svc's memory client uses, with Letta's paths and shapes.
 * Extensions: POST archival-memory also takes `{passages: [{text, tags}]}` (a batch in one
 * transaction, answered with the passages in order); GET archival-memory takes `tags` (repeated,
 * any-match); search results carry their BM25 `score` (higher is better); the health answer says
 * `server: 'svc'`; agent names are unique (creating a taken name is 409); PATCH of a missing block
 * creates it. Lists, searches and batches take at most MAX_PAGE items.
 */
const ROUTES: Route[] = [
  { method: 'GET', path: /^\/v1\/health$/, handle: () => json({ version, status: 'ok', server: 'svc' }) },
  { method: 'POST', path: /^\/v1\/agents$/, handle: createAgent },
  { method: 'GET', path: /^\/v1\/agents$/, handle: listAgents },
  { method: 'GET', path: new RegExp(`${AGENT}$`), handle: (store, _req, _url, [id]) => json(agentOr404(store, id)) },
  { method: 'DELETE', path: new RegExp(`${AGENT}$`), handle: deleteAgent },
  { method: 'POST', path: new RegExp(`${AGENT}/archival-memory$`), handle: addPassages },
  { method: 'GET', path: new RegExp(`${AGENT}/archival-memory$`), handle: listPassages },
  { method: 'GET', path: new RegExp(`${AGENT}/archival-memory/search$`), handle: searchPassages },
  { method: 'DELETE', path: new RegExp(`${AGENT}/archival-memory/${ID}$`), handle: deletePassage },
  { method: 'GET', path: new RegExp(`${AGENT}/core-memory/blocks/${ID}$`), handle: getBlock },
  { method: 'PATCH', path: new RegExp(`${AGENT}/core-memory/blocks/${ID}$`), handle: setBlock },
];

/** Answers one request; errors the client caused are 4xx `{detail}`. */
export async function route(store: MemoryStore, req: Request): Promise<Response> {
  const url = new URL(req.url);
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  let pathKnown = false;
  for (const r of ROUTES) {
    const m = r.path.exec(path);
    if (!m) continue;
    pathKnown = true;
    if (r.method !== req.method) continue;
    try {
      return await r.handle(store, req, url, m.slice(1).map(decodeSegment));
    } catch (err) {
      if (err instanceof HttpError) return detail(err.status, err.message);
      throw err;
    }
  }
  return pathKnown ? detail(405, `method ${req.method} not allowed on ${path}`) : detail(404, `no such endpoint: ${req.method} ${path}`);
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, `malformed path segment '${segment}'`);
  }
}

async function createAgent(store: MemoryStore, req: Request): Promise<Response> {
  const body = await objectBody(req);
  const name = stringField(body, 'name');
  if (!name.trim()) throw new HttpError(422, 'name must not be empty');
  const blocks = body.memory_blocks ?? [];
  if (!Array.isArray(blocks) || !blocks.every((b) => isMapping(b) && typeof b.label === 'string' && typeof b.value === 'string')) {
    throw new HttpError(422, 'memory_blocks must be a list of {label, value} with string values');
  }
  const agent = store.createAgent(name, tagsField(body), blocks as { label: string; value: string }[]);
  if (!agent) throw new HttpError(409, `an agent named '${name}' already exists`);
  return json(agent);
}

function listAgents(store: MemoryStore, _req: Request, url: URL): Response {
  const opts = { name: url.searchParams.get('name'), limit: intParam(url, 'limit', MAX_PAGE, MAX_PAGE), after: url.searchParams.get('after') };
  return json(store.listAgents(opts));
}

function deleteAgent(store: MemoryStore, _req: Request, _url: URL, [id]: string[]): Response {
  if (!store.deleteAgent(id ?? '')) throw unknownAgent(id);
  return json({ detail: `agent ${id} deleted` });
}

async function addPassages(store: MemoryStore, req: Request, _url: URL, [id]: string[]): Promise<Response> {
  agentOr404(store, id);
  const body = await objectBody(req);
  const batch = body.passages;
  let items: { text: string; tags: string[] }[];
  if (batch === undefined) items = [{ text: stringField(body, 'text'), tags: tagsField(body) }];
  else {
    if (!Array.isArray(batch) || batch.length > MAX_PAGE) throw new HttpError(422, `passages must be a list of at most ${MAX_PAGE} {text, tags}`);
    items = batch.map((p, i) => {
      if (!isMapping(p)) throw new HttpError(422, `passages[${i}] must be an object {text, tags}`);
      return { text: stringField(p, 'text'), tags: tagsField(p) };
    });
  }
  return json(store.addPassages(id ?? '', items));
}

function listPassages(store: MemoryStore, _req: Request, url: URL, [id]: string[]): Response {
  agentOr404(store, id);
  const opts = { limit: intParam(url, 'limit', 100, MAX_PAGE), after: url.searchParams.get('after'), ascending: boolParam(url, 'ascending', true), tags: tagsParam(url) };
  return json(store.listPassages(id ?? '', opts));
}

function searchPassages(store: MemoryStore, _req: Request, url: URL, [id]: string[]): Response {
  agentOr404(store, id);
  const match = url.searchParams.get('tag_match_mode') ?? 'any';
  if (match !== 'any' && match !== 'all') throw new HttpError(422, `tag_match_mode must be any or all, got '${match}'`);
  const opts = { query: url.searchParams.get('query') ?? '', tags: tagsParam(url), match: match as TagMatch, topK: intParam(url, 'top_k', 10, MAX_PAGE) };
  const results = store.searchPassages(id ?? '', opts).map(searchResultJson);
  return json({ results, count: results.length });
}

function deletePassage(store: MemoryStore, _req: Request, _url: URL, [id, memoryId]: string[]): Response {
  agentOr404(store, id);
  if (!store.deletePassage(id ?? '', memoryId ?? '')) throw new HttpError(404, `passage ${memoryId} not found for agent ${id}`);
  return json({ detail: `passage ${memoryId} deleted` });
}

function getBlock(store: MemoryStore, _req: Request, _url: URL, [id, label]: string[]): Response {
  agentOr404(store, id);
  const value = store.getBlock(id ?? '', label ?? '');
  if (value === null) throw new HttpError(404, `block '${label}' not found for agent ${id}`);
  return json({ label, value });
}

async function setBlock(store: MemoryStore, req: Request, _url: URL, [id, label]: string[]): Promise<Response> {
  agentOr404(store, id);
  const value = stringField(await objectBody(req), 'value');
  store.setBlock(id ?? '', label ?? '', value);
  return json({ label, value });
}

async function objectBody(req: Request): Promise<Record<string, unknown>> {
  const body = await readJson(req);
  if (!isMapping(body)) throw new HttpError(422, 'request body must be a JSON object');
  return body;
}

function agentOr404(store: MemoryStore, id: string | undefined) {
  const agent = store.getAgent(id ?? '');
  if (!agent) throw unknownAgent(id);
  return agent;
}

const unknownAgent = (id: string | undefined) => new HttpError(404, `agent ${id} not found`);

function searchResultJson(p: ScoredPassageRecord) {
  return { id: p.id, timestamp: p.created_at, content: p.text, tags: p.tags, score: p.score };
}
