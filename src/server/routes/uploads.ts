import { Elysia } from 'elysia';
import { deleteUpload, saveUploads, type UploadedFile } from '../../core/checkpoint/uploads.ts';
import type { ServerContext } from '../context.ts';
import { UPLOAD_LIMIT_BYTES } from '../limits.ts';
import { UploadDeleteBody } from '../../schema/dashboard-api.ts';

/** Uploads: files a researcher gives the active checkpoint, in its uploads/ directory. */
export const uploadRoutes = (ctx: ServerContext) =>
  new Elysia({ name: 'uploads' })
    .post(
      '/api/upload',
      async ({ body }) => {
        const dir = ctx.requireActive();
        return { ok: true, files: await saveUploads(dir, formFiles(body as FormData), UPLOAD_LIMIT_BYTES) };
      },
    )
    .post('/api/upload/delete', ({ body }) => ({ ok: true, ...deleteUpload(ctx.requireActive(), body.name) }), {
      body: UploadDeleteBody,
    });

/** Every file field of the multipart/form-data body (read by httpApp, limits.ts), whatever the field is called. */
function formFiles(form: FormData): UploadedFile[] {
  const files: UploadedFile[] = [];
  form.forEach((value) => {
    // a part sent with filename="" has no name at all; the name check answers it
    if (typeof value !== 'string') files.push({ name: value.name ?? '', data: value });
  });
  return files;
}
