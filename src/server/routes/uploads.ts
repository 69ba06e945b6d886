import { Elysia, t } from 'elysia';
import { deleteUpload, saveUploads, type UploadedFile } from '../../core/checkpoint/uploads.ts';
import { InputError } from '../../core/errors.ts';
import type { ServerContext } from '../context.ts';
import { UPLOAD_LIMIT_BYTES } from '../limits.ts';

/** Uploads: files a researcher gives the active checkpoint, in its uploads/ directory. */
export const uploadRoutes = (ctx: ServerContext) =>
  new Elysia({ name: 'uploads' })
    .post(
      '/api/upload',
      async ({ request }) => {
        const dir = ctx.requireActive();
        const files = await formFiles(request);
        return { ok: true, files: await saveUploads(dir, files, UPLOAD_LIMIT_BYTES) };
      },
      // the form is read here, so a body that is not multipart gets its own clear answer
      { parse: 'none' },
    )
    .post('/api/upload/delete', ({ body }) => ({ ok: true, ...deleteUpload(ctx.requireActive(), body.name) }), {
      body: t.Object({ name: t.String() }),
    });

/** Every file field of a multipart/form-data body, whatever the field is called. */
async function formFiles(request: Request): Promise<UploadedFile[]> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(type)) {
    throw new InputError(`expected a multipart/form-data body, got ${type === '' ? 'no content type' : type.split(';')[0]}`, 'send the files as form fields');
  }
  const form = await request.formData().catch((err: Error) => {
    throw new InputError(`malformed multipart body: ${err.message}`);
  });
  const files: UploadedFile[] = [];
  form.forEach((value) => {
    // a part sent with filename="" has no name at all; the name check answers it
    if (typeof value !== 'string') files.push({ name: value.name ?? '', data: value });
  });
  return files;
}
