import { Elysia } from 'elysia';
import { deleteCheckpointFile, decodeContent, saveCheckpointFile } from '../../core/checkpoint/files-edit.ts';
import { isNodeMetaFile, nodeWorkDir } from '../../core/checkpoint/files-node.ts';
import { displayPath } from '../../core/checkpoint/files-path.ts';
import { rawFile, readFileBatch, readFileContent } from '../../core/checkpoint/files-read.ts';
import { fileTree } from '../../core/checkpoint/files-tree.ts';
import { listCheckpointFiles } from '../../core/checkpoint/files.ts';
import { compileLatex, findPaperTex } from '../../paper/compile.ts';
import type { ServerContext } from '../context.ts';
import { HttpError, json } from '../../http/response.ts';
import { CompileBody, DeleteFileBody, PathQuery, SaveFileBody, TreeQuery } from '../../schema/dashboard-api.ts';

/** Checkpoint files: list, read (inline, raw, batch), tree, save, delete, and compiling the paper. */
export const checkpointFileRoutes = (ctx: ServerContext) => {
  /** The checkpoint a write goes to: the one named, else the active one (409 when none). */
  const target = (id: string | undefined) => (id === undefined ? ctx.requireActive() : ctx.checkpointDir(id));
  /** The root a read is relative to: a node's work directory when node_id is given, else the checkpoint. */
  const readRoot = (id: string, nodeId: string | null | undefined) => {
    const dir = ctx.checkpointDir(id);
    return nodeId === undefined || nodeId === null ? dir : nodeWorkDir(dir, nodeId);
  };

  /** The workflow copy says where requests go: a page of another origin changes it only through /api/workflow, where such a change waits for approval. */
  const guardWorkflowFile = (request: Request, path: string) => {
    if (ctx.routing.isForeign(request) && /^(\.\/)*workflow\.ya?ml$/i.test(path.trim())) {
      throw new HttpError(403, 'a page of another origin may not write the workflow through the file API: send it to POST /api/workflow');
    }
  };

  return new Elysia({ name: 'checkpoint-files' })
    .get('/api/checkpoint/:id/files', ({ params }) => listCheckpointFiles(ctx.checkpointDir(params.id)))
    .get(
      '/api/checkpoint/:id/file',
      ({ params, query }) =>
        readFileContent(ctx.checkpointDir(params.id), query.path, {
          tooLargeHint: `fetch it as raw bytes from /api/checkpoint/${params.id}/file/raw?path=${encodeURIComponent(query.path)}`,
        }),
      { query: PathQuery },
    )
    .get(
      '/api/checkpoint/:id/file/raw',
      ({ params, query }) => {
        const file = rawFile(ctx.checkpointDir(params.id), query.path);
        return new Response(Bun.file(file.abs), { headers: { ...file.headers, 'content-length': String(file.size) } });
      },
      { query: PathQuery },
    )
    .get(
      '/api/checkpoint/:id/filetree',
      ({ params, query }) => {
        const root = readRoot(params.id, query.node_id);
        return query.node_id === undefined ? fileTree(root, params.id) : fileTree(root, query.node_id, isNodeMetaFile);
      },
      { query: TreeQuery },
    )
    .get('/api/checkpoint/:id/filecontent', ({ params, request }) => {
      // read from the URL itself: a repeated ?path= must stay a list, whatever the query parser makes of it
      const search = new URL(request.url).searchParams;
      const paths = [...search.getAll('paths').flatMap((p) => p.split(',')), ...search.getAll('path')].filter((p) => p !== '');
      return { files: readFileBatch(readRoot(params.id, search.get('node_id')), paths) };
    })
    .post(
      '/api/checkpoint/file/save',
      ({ body, request }) => {
        guardWorkflowFile(request, body.path);
        const saved = saveCheckpointFile(target(body.id), body.path, decodeContent(body.content, body.encoding));
        return { ok: true, ...saved };
      },
      { body: SaveFileBody },
    )
    .post(
      '/api/checkpoint/file/delete',
      ({ body, request }) => {
        guardWorkflowFile(request, body.path);
        return { ok: true, ...deleteCheckpointFile(target(body.id), body.path) };
      },
      { body: DeleteFileBody },
    )
    .post(
      '/api/checkpoint/compile',
      async ({ body }) => {
        const root = target(body.id);
        const result = await compileLatex(findPaperTex(root, body.path), { env: ctx.env });
        if (!result.ok) return json({ error: result.error, log_tail: result.logTail }, 422);
        return { ok: true, pdf: displayPath(root, result.pdf), log_tail: result.logTail };
      },
      { body: CompileBody },
    );
};
