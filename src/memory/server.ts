import { join } from 'node:path';
import { version } from '../../package.json';
import type { Env } from '../core/config/env-vars.ts';
import { homeDir, isSystemDir, projectRoot } from '../core/workspace.ts';
import { httpApp } from '../http/app.ts';
import { HttpError } from '../http/response.ts';
import { type Listening, serveHttp } from '../http/serve.ts';
import { AddPassagesBody, CreateAgentBody, MAX_PAGE, SetBlockBody } from '../schema/memory-api.ts';
import { boolParam, intParam, queryOf, tagsParam } from './server-params.ts';
import { MemoryStore, type ScoredPassageRecord } from './store.ts';

/** Request bodies above this are refused (413) before they are parsed. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

export type MemoryServerOptions = {
  port: number;
  host: string;
  dataDir: string;
  /** When set, every request must carry `Authorization: Bearer <apiKey>`. */
  apiKey?: string | null;
};

export type MemoryServer = Listening;

/** Starts the memory server on an open store; `stop` lets requests in flight finish, then closes the database. */
export function startMemoryServer(opts: MemoryServerOptions): MemoryServer {
  const store = MemoryStore.open(opts.dataDir);
  const app = memoryApp(store);
  return serveHttp((req) => app.handle(req), {
    host: opts.host,
    port: opts.port,
    portHint: 'pick another with --port, or stop the server already there',
    name: 'svc memory',
    errorKey: 'detail',
    token: opts.apiKey,
    close: () => store.close(),
  });
}

const ARCHIVAL = '/v1/agents/:id/archival-memory';
const BLOCK = '/v1/agents/:id/core-memory/blocks/:label';

/**
 * The subset of Letta's REST API that svc's memory client uses, with Letta's paths and shapes, and
 * its errors: `{detail}`, 422 for a body or parameter of the wrong shape. Extensions: POST
 * archival-memory also takes `{passages: [{text, tags}]}` (a batch in one transaction, answered
 * with the passages in order); GET archival-memory takes `tags` (repeated, any-match); search
 * results carry their BM25 `score` (higher is better); the health answer says `server: 'svc'`;
 * agent names are unique (creating a taken name is 409); PATCH of a missing block creates it.
 * Lists, searches and batches take at most MAX_PAGE items.
 */
function memoryApp(store: MemoryStore) {
  const agentOr404 = (id: string) => {
    const agent = store.getAgent(id);
    if (!agent) throw new HttpError(404, `agent ${id} not found`);
    return agent;
  };
  return httpApp({ name: 'svc memory', errorKey: 'detail', validationStatus: 422, jsonOnly: true, bodies: { [ARCHIVAL]: { limit: MAX_BODY_BYTES }, '/v1/agents': { limit: MAX_BODY_BYTES }, [BLOCK]: { limit: MAX_BODY_BYTES } } })
    .get('/v1/health', () => ({ version, status: 'ok', server: 'svc' }))
    .post(
      '/v1/agents',
      ({ body }) => {
        const agent = store.createAgent(body.name, body.tags ?? [], body.memory_blocks ?? []);
        if (!agent) throw new HttpError(409, `an agent named '${body.name}' already exists`);
        return agent;
      },
      { body: CreateAgentBody },
    )
    .get('/v1/agents', ({ request }) => {
      const q = queryOf(request);
      return store.listAgents({ name: q.get('name'), limit: intParam(q, 'limit', MAX_PAGE, MAX_PAGE), after: q.get('after') });
    })
    .get('/v1/agents/:id', ({ params }) => agentOr404(params.id))
    .delete('/v1/agents/:id', ({ params }) => {
      if (!store.deleteAgent(params.id)) throw new HttpError(404, `agent ${params.id} not found`);
      return { detail: `agent ${params.id} deleted` };
    })
    .post(
      ARCHIVAL,
      ({ params, body }) => {
        agentOr404(params.id);
        if (body.passages === undefined && body.text === undefined) throw new HttpError(422, 'body.text: give the passage text, or a batch as passages');
        const items = body.passages ?? [{ text: body.text ?? '', tags: body.tags }];
        return store.addPassages(
          params.id,
          items.map((p) => ({ text: p.text, tags: p.tags ?? [] })),
        );
      },
      { body: AddPassagesBody },
    )
    .get(ARCHIVAL, ({ params, request }) => {
      agentOr404(params.id);
      const q = queryOf(request);
      return store.listPassages(params.id, { limit: intParam(q, 'limit', 100, MAX_PAGE), after: q.get('after'), ascending: boolParam(q, 'ascending', true), tags: tagsParam(q) });
    })
    .get(`${ARCHIVAL}/search`, ({ params, request }) => {
      agentOr404(params.id);
      const q = queryOf(request);
      const match = q.get('tag_match_mode') ?? 'any';
      if (match !== 'any' && match !== 'all') throw new HttpError(422, `tag_match_mode must be any or all, got '${match}'`);
      const results = store.searchPassages(params.id, { query: q.get('query') ?? '', tags: tagsParam(q), match, topK: intParam(q, 'top_k', 10, MAX_PAGE) }).map(searchResult);
      return { results, count: results.length };
    })
    .delete(`${ARCHIVAL}/:memoryId`, ({ params }) => {
      agentOr404(params.id);
      if (!store.deletePassage(params.id, params.memoryId)) throw new HttpError(404, `passage ${params.memoryId} not found for agent ${params.id}`);
      return { detail: `passage ${params.memoryId} deleted` };
    })
    .get(BLOCK, ({ params }) => {
      agentOr404(params.id);
      const value = store.getBlock(params.id, params.label);
      if (value === null) throw new HttpError(404, `block '${params.label}' not found for agent ${params.id}`);
      return { label: params.label, value };
    })
    .patch(
      BLOCK,
      ({ params, body }) => {
        agentOr404(params.id);
        store.setBlock(params.id, params.label, body.value);
        return { label: params.label, value: body.value };
      },
      { body: SetBlockBody },
    );
}

function searchResult(p: ScoredPassageRecord) {
  return { id: p.id, timestamp: p.created_at, content: p.text, tags: p.tags, score: p.score };
}

/**
 * Where `svc memory serve` keeps its database unless told otherwise: `~/.svc/memory`, shared by
 * the user's projects; for a user whose home is `/` or a system directory (a service account),
 * the project's `.svc/memory` instead.
 */
export function defaultMemoryDataDir(env: Env, cwd = process.cwd()): string {
  const home = homeDir(env);
  return join(isSystemDir(home) ? projectRoot(env, cwd) : home, '.svc', 'memory');
}
