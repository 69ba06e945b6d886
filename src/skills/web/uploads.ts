import { extname } from 'node:path';
import { Type as T } from '@sinclair/typebox';
import { listUploads, MAX_LISTED_UPLOADS, uploadedFilePath } from '../../core/checkpoint/uploads-read.ts';
import { envValue } from '../../core/config/env-vars.ts';
import { InputError } from '../../core/errors.ts';
import { defineTool, type ToolContext } from '../../mcp/tool.ts';
import { pdfText } from '../../paper/pdf-text.ts';

const MAX_CHARS = 1_000_000;

/** The run's checkpoint, whose uploads/ these tools read. */
function checkpointOf(env: ToolContext['env']): string {
  const dir = envValue(env, 'SVC_CHECKPOINT_DIR');
  if (!dir) throw new InputError('SVC_CHECKPOINT_DIR is not set, so there are no uploads to read', 'these tools read the uploads of the run the skill serves: run them within svc run, or set SVC_CHECKPOINT_DIR');
  return dir;
}

export const listUploadedFilesTool = defineTool({
  name: 'list_uploaded_files',
  description: `List the files the researcher uploaded for this run (<checkpoint>/uploads/): {files: [{name, size, modified}], total, note?}; read one with read_uploaded_file. At most ${MAX_LISTED_UPLOADS} are listed.`,
  params: T.Object({}, { additionalProperties: false }),
  run(_args, ctx) {
    const { files, total, present } = listUploads(checkpointOf(ctx.env));
    if (!present) return { files, total, note: 'no files were uploaded for this run' };
    return total > files.length ? { files, total, note: `${total} files; the first ${files.length} by name are listed` } : { files, total };
  },
});

export const readUploadedFileTool = defineTool({
  name: 'read_uploaded_file',
  description:
    'Read a file the researcher uploaded for this run, by the name list_uploaded_files gives: the text of a PDF (pdftotext), of a text file as it is; a binary file has none. ' +
    'Returns {filename, kind (text, pdf, binary), size, text (at most max_chars characters), chars (of the whole text; null when only its start was read), truncated, pages?, note?}. Names leading out of uploads/ are refused.',
  params: T.Object(
    {
      filename: T.String({ description: 'the name as list_uploaded_files shows it (a path inside uploads/)' }),
      max_chars: T.Integer({ default: 50000, description: `characters of text at most, 1 to ${MAX_CHARS}` }),
    },
    { additionalProperties: false },
  ),
  timeoutS: 120,
  async run(args, ctx) {
    if (!Number.isInteger(args.max_chars) || args.max_chars < 1 || args.max_chars > MAX_CHARS) throw new InputError(`read_uploaded_file: max_chars must be an integer from 1 to ${MAX_CHARS}, got ${args.max_chars}`);
    const { abs, size } = uploadedFilePath(checkpointOf(ctx.env), args.filename);
    const base = { filename: args.filename, size };
    // a UTF-8 character is at most 4 bytes: more than this cannot fit in max_chars
    const head = await Bun.file(abs).slice(0, Math.min(size, args.max_chars * 4)).bytes();
    if (extname(abs).toLowerCase() === '.pdf' || Buffer.from(head.subarray(0, 5)).toString('latin1') === '%PDF-') {
      const pdf = await pdfText({ path: abs }, `uploads/${args.filename}`, ctx.env);
      const text = pdf.text.replace(/\f/g, '\n\n').trim();
      return { ...base, kind: 'pdf', text: text.slice(0, args.max_chars), chars: text.length, truncated: text.length > args.max_chars || pdf.truncated, pages: pdf.pages };
    }
    if (head.subarray(0, 8192).includes(0)) return { ...base, kind: 'binary', text: '', chars: 0, truncated: false, note: 'a binary file: it has no text to show' };
    const text = new TextDecoder('utf-8').decode(head);
    const whole = head.length === size;
    return { ...base, kind: 'text', text: text.slice(0, args.max_chars), chars: whole ? text.length : null, truncated: !whole || text.length > args.max_chars };
  },
});
