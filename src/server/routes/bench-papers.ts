import { join } from 'node:path';
import { Elysia } from 'elysia';
import { fetchPreprintMetadata } from '../../bench/arxiv.ts';
import { refuseDeleteWithActiveJobs } from '../../bench/jobs/wiring.ts';
import { DuplicatePaperError, PaperRegistry, paperRegistryDir } from '../../bench/registry.ts';
import { UPLOADS_DIR } from '../../core/checkpoint/uploads.ts';
import { UnavailableError } from '../../core/errors.ts';
import { errorResponse, json, messageOf } from '../../http/response.ts';
import { decodeUrlPart } from '../../http/url-part.ts';
import { ImportBody, MetadataPatch } from '../../schema/bench-api.ts';
import type { ServerContext } from '../context.ts';

/** The benchmark's paper registry and arXiv metadata (bench API: papers). */
export const benchPaperRoutes = (ctx: ServerContext) => {
  const registry = () => PaperRegistry.open(paperRegistryDir(ctx.env, ctx.workspaceRoot));
  return new Elysia({ name: 'bench-papers' })
    .get('/api/bench/papers', () => ({ papers: registry().list() }))
    // old-style ids hold a slash (hep-th/9901001), sent as it is or as %2F
    .get('/api/bench/arxiv/*', ({ params, request }) => answerOf(() => fetchPreprintMetadata(decodeUrlPart(params['*'], 'arXiv id'), ctx.env, request.signal)))
    .post(
      '/api/bench/papers/import',
      ({ body }) => {
        const uploads = ctx.active ? join(ctx.active, UPLOADS_DIR) : null;
        return answerOf(() => registry().import(body, ctx.env, { uploadsDir: uploads }));
      },
      { body: ImportBody },
    )
    .post('/api/bench/papers/:paper_id/delete', ({ params }) => {
      const papers = registry();
      refuseDeleteWithActiveJobs(papers.dir, params.paper_id);
      return papers.delete(params.paper_id);
    })
    .post('/api/bench/papers/:paper_id/metadata', ({ params, body }) => registry().patch(params.paper_id, body), { body: MetadataPatch })
    .get('/api/bench/papers/:paper_id/license', ({ params }) => registry().license(params.paper_id));
};

/** arXiv out of reach is a bad gateway, as for the other proxied services; a duplicate shows the paper it clashes with. */
async function answerOf<T>(call: () => Promise<T>): Promise<T | Response> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof UnavailableError) return errorResponse(502, messageOf(err));
    if (err instanceof DuplicatePaperError) return json({ error: messageOf(err), existing: err.existing }, 409);
    throw err;
  }
}
