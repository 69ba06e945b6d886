import { Elysia } from 'elysia';
import { stagingDir } from '../../core/checkpoint/upload-staging.ts';
import { deleteUpload, saveUploads, type UploadedFile } from '../../core/checkpoint/uploads.ts';
import type { ServerContext } from '../context.ts';
import { sweepStagedUploads } from '../staging-sweep.ts';
import { UPLOAD_LIMIT_BYTES } from '../limits.ts';
import { UploadDeleteBody, UploadQuery } from '../../schema/dashboard-api.ts';

/**
 * Uploads: files a researcher gives the active checkpoint (or the one `id` names), in its uploads/ directory; with
 * `staging`, files for a run not launched yet, which the launch naming that id takes over.
 */
export const uploadRoutes = (ctx: ServerContext) =>
  new Elysia({ name: 'uploads' })
    .post(
      '/api/upload',
      async ({ body, query }) => {
        const dir = uploadTarget(ctx, query);
        return { ok: true, files: await saveUploads(dir, formFiles(body as FormData), UPLOAD_LIMIT_BYTES) };
      },
      { query: UploadQuery },
    )
    .post('/api/upload/delete', ({ body }) => ({ ok: true, ...deleteUpload(uploadTarget(ctx, body), body.name) }), {
      body: UploadDeleteBody,
    });

/** The directory whose uploads/ a request means: the staging id's, else the checkpoint it names, else the active one. */
function uploadTarget(ctx: ServerContext, { staging, id }: { staging?: string | undefined; id?: string | undefined }): string {
  if (staging !== undefined) {
    // a dashboard left running for weeks sweeps as files are staged, not only when it starts
    sweepStagedUploads(ctx.workspaceRoot, staging);
    return stagingDir(ctx.workspaceRoot, staging);
  }
  return id === undefined ? ctx.requireActive() : ctx.checkpointDir(id);
}

/** Every file field of the multipart/form-data body (read by httpApp, limits.ts), whatever the field is called. */
function formFiles(form: FormData): UploadedFile[] {
  const files: UploadedFile[] = [];
  form.forEach((value) => {
    // a part sent with filename="" has no name at all; the name check answers it
    if (typeof value !== 'string') files.push({ name: value.name ?? '', data: value });
  });
  return files;
}
