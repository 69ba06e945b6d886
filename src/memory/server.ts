import { join } from 'node:path';
import { version } from '../../package.json';
import type { Env } from '../core/config/env-vars.ts';
import { oneLine, UnavailableError } from '../core/errors.ts';
import { logFor } from '../core/log.ts';
import { homeDir, isSystemDir, projectRoot } from '../core/workspace.ts';
import { httpApp } from '../http/app.ts';
import { HttpError } from '../http/response.ts';
import { type Listening, serveHttp } from '../http/serve.ts';
import { AddPassagesBody, CreateAgentBody, MAX_PAGE, SetBlockBody } from '../schema/memory-api.ts';
import { AgentVectors } from './agent-vectors.ts';
import { modelHandle } from './embedding-handle.ts';
import { PassageEmbeddings } from './passage-embeddings.ts';
import { boolParam, intParam, queryOf, tagsParam } from './server-params.ts';
import { MemoryStore, type ScoredPassageRecord } from './store.ts';
import { vectorFromText, vectorText } from './store-vectors.ts';

/** Request bodies above this are refused (413) before they are parsed. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

export type MemoryServerOptions = {
  port: number;
  host: string;
  dataDir: string;
  /** When set, every request must carry `Authorization: Bearer <apiKey>`. */
  apiKey?: string | null;
  /** settings for embedding passages (MEMBACKEND_EMBEDDING_CONFIG, the model backends); the process environment when absent */
  env?: Env;
  /** false: no line at start saying search is BM25 alone (a run's own server, whose agent brings its model) */
  announce?: boolean;
};

/** Passages a reindex request embeds at most, by default. */
const REINDEX_BATCH = 256;

export type MemoryServer = Listening;

/** Starts the memory server on an open store; `stop` lets requests in flight finish, then closes the database. */
export function startMemoryServer(opts: MemoryServerOptions): MemoryServer {
  const store = MemoryStore.open(opts.dataDir);
  const embeddings = new PassageEmbeddings(opts.env ?? process.env);
  if (embeddings.serverHandle === null && opts.announce !== false) {
    logFor('svc memory').info('no embedding model (MEMBACKEND_EMBEDDING_CONFIG): search ranks by BM25 alone, except for agents created with an embedding handle');
  }
  const app = memoryApp(store, new AgentVectors(store, embeddings), embeddings.serverHandle);
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
 * results carry their `score` (higher is better: BM25, or with an embedding model the reciprocal-rank
 * fusion of BM25 and cosine similarity); the health answer says `server: 'svc'` and names the
 * server's embedding model; POST archival-memory/reindex embeds passages still without a vector;
 * GET archival-memory takes `include_vectors=true` and POST takes passages with their `vector`
 * (a backup's `{model, data}`, stored as given instead of embedded again);
 * agent names are unique (creating a taken name is 409); PATCH of a missing block creates it.
 * Lists, searches and batches take at most MAX_PAGE items.
 */
function memoryApp(store: MemoryStore, vectors: AgentVectors, serverModel: string | null) {
  const agentOr404 = (id: string) => {
    const agent = store.getAgent(id);
    if (!agent) throw new HttpError(404, `agent ${id} not found`);
    return agent;
  };
  return httpApp({ name: 'svc memory', errorKey: 'detail', validationStatus: 422, jsonOnly: true, bodies: { [ARCHIVAL]: { limit: MAX_BODY_BYTES }, '/v1/agents': { limit: MAX_BODY_BYTES }, [BLOCK]: { limit: MAX_BODY_BYTES } } })
    .get('/v1/health', () => ({ version, status: 'ok', server: 'svc', embedding: serverModel, search: serverModel === null ? 'bm25' : 'hybrid' }))
    .post(
      '/v1/agents',
      ({ body }) => {
        const agent = store.createAgent(body.name, body.tags ?? [], body.memory_blocks ?? [], modelHandle(body.embedding));
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
      async ({ params, body }) => {
        agentOr404(params.id);
        if (body.passages === undefined && body.text === undefined) throw new HttpError(422, 'body.text: give the passage text, or a batch as passages');
        const items = body.passages ?? [{ text: body.text ?? '', tags: body.tags }];
        const carried = items.map((p, i) => {
          if (!p.vector) return null;
          const vector = vectorFromText(p.vector.data);
          if (vector === null) throw new HttpError(422, `body.passages[${i}].vector.data: base64 of little-endian Float32 values expected`);
          return { model: p.vector.model, vector };
        });
        const added = store.addPassages(
          params.id,
          items.map((p) => ({ text: p.text, tags: p.tags ?? [] })),
        );
        // vectors a backup carried are kept as they are; the other passages are embedded now
        store.setVectors(added.flatMap((p, i) => (carried[i] ? [{ id: p.id, ...carried[i] }] : [])));
        await vectors.addVectors(params.id, added.filter((_, i) => carried[i] === null));
        return added;
      },
      { body: AddPassagesBody },
    )
    .get(ARCHIVAL, ({ params, request }) => {
      agentOr404(params.id);
      const q = queryOf(request);
      const page = store.listPassages(params.id, { limit: intParam(q, 'limit', 100, MAX_PAGE), after: q.get('after'), ascending: boolParam(q, 'ascending', true), tags: tagsParam(q) });
      if (!boolParam(q, 'include_vectors', false)) return page;
      const stored = store.vectorsOf(page.map((p) => p.id));
      return page.map((p) => {
        const v = stored.get(p.id);
        return v ? { ...p, vector: { model: v.model, data: vectorText(v.vector) } } : p;
      });
    })
    .get(`${ARCHIVAL}/search`, async ({ params, request }) => {
      agentOr404(params.id);
      const q = queryOf(request);
      const match = q.get('tag_match_mode') ?? 'any';
      if (match !== 'any' && match !== 'all') throw new HttpError(422, `tag_match_mode must be any or all, got '${match}'`);
      const found = await vectors.search(params.id, { query: q.get('query') ?? '', tags: tagsParam(q), match, topK: intParam(q, 'top_k', 10, MAX_PAGE) });
      const results = found.map(searchResult);
      return { results, count: results.length };
    })
    .post(`${ARCHIVAL}/reindex`, async ({ params, request }) => {
      agentOr404(params.id);
      const limit = intParam(queryOf(request), 'limit', REINDEX_BATCH, MAX_PAGE);
      const done = await vectors.reindex(params.id, limit).catch((err: unknown) => {
        // the model's failure, told without a stack: the server itself is fine
        throw new UnavailableError(`embedding model ${vectors.handleOf(params.id)}: ${oneLine(err)}`);
      });
      if (done === null) throw new HttpError(409, `agent ${params.id} has no embedding model (MEMBACKEND_EMBEDDING_CONFIG): its search is BM25 alone`);
      return done;
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
