import { readFileSync } from 'node:fs';
import { Type as T } from '@sinclair/typebox';
import { InputError, NotFoundError, TooLargeError } from '../core/errors.ts';
import { statOrNull } from '../core/paths.ts';
import { printable } from '../core/text.ts';
import { defineTool, toolParams } from '../mcp/tool.ts';
import { fileInWorkDir, WorkDirParam } from './work-dir.ts';

/** A file read whole to be paged; anything larger is a job for grep, head or tail. */
export const MAX_READ_BYTES = 64 * 1024 * 1024;
/** A NUL byte in this much of the start marks a binary file, as git decides it. */
const SNIFF_BYTES = 8000;

export const readFile = defineTool({
  name: 'read_file',
  description:
    'Read a text file of work_dir one page at a time. offset and limit count characters. Returns {content, next_offset, total_lines, total_chars}; next_offset is where the next page starts, null at the end. Binary files are refused.',
  params: toolParams({
    path: T.String({ description: 'the file, relative to work_dir' }),
    offset: T.Integer({ default: 0, minimum: 0, description: 'character to start at' }),
    limit: T.Integer({ default: 8000, minimum: 1, maximum: 100_000, description: 'characters to return at most' }),
    work_dir: WorkDirParam,
  }),
  run(args, ctx) {
    const { dir, path: file } = fileInWorkDir(args.path, 'path', args.work_dir, ctx.env);
    const shown = printable(args.path);
    const st = statOrNull(file);
    if (!st) throw new NotFoundError(`no file '${shown}' in ${dir}`);
    if (!st.isFile()) throw new InputError(`path '${shown}' is not a regular file`, 'list a directory with run_bash');
    if (st.size > MAX_READ_BYTES) {
      throw new TooLargeError(`'${shown}' has ${st.size} bytes, more than read_file reads (${MAX_READ_BYTES})`, 'look into it with run_bash: grep, head or tail');
    }
    const bytes = readFileSync(file);
    if (bytes.subarray(0, SNIFF_BYTES).includes(0)) {
      throw new InputError(`'${shown}' is a binary file (${bytes.length} bytes); read_file reads text`, 'inspect it with run_bash, e.g. file or xxd');
    }
    const text = bytes.toString('utf8');
    if (args.offset > text.length) throw new InputError(`offset ${args.offset} is past the end of '${shown}' (${text.length} characters)`);
    const end = pageEnd(text, args.offset, args.limit);
    return {
      content: text.slice(args.offset, end),
      next_offset: end < text.length ? end : null,
      total_lines: countLines(text),
      total_chars: text.length,
    };
  },
});

/** Where a page ends: never between the two halves of a character outside the basic plane. */
function pageEnd(text: string, offset: number, limit: number): number {
  const end = Math.min(offset + limit, text.length);
  const last = text.charCodeAt(end - 1);
  return end < text.length && last >= 0xd800 && last <= 0xdbff ? end + 1 : end;
}

/** Lines as editors count them: a last line without a newline still counts. */
function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.length > 0 && !text.endsWith('\n') ? n + 1 : n;
}
