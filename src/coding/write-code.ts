import { Type as T } from '@sinclair/typebox';
import { writeFileAtomic } from '../core/atomic.ts';
import { InputError } from '../core/errors.ts';
import { statOrNull } from '../core/paths.ts';
import { printable } from '../core/text.ts';
import { defineTool, toolParams } from '../mcp/tool.ts';
import { fileInWorkDir, WorkDirParam } from './work-dir.ts';

export const writeCode = defineTool({
  name: 'write_code',
  description:
    'Write a file in work_dir (directories are created), replacing any file of that name whole. A new file that starts with #! is made executable; a replaced file keeps its permissions. Returns {path, bytes}.',
  params: toolParams({
    filename: T.String({ description: 'path relative to work_dir, e.g. train.py or src/model.py' }),
    code: T.String({ description: 'the complete file content' }),
    work_dir: WorkDirParam,
  }),
  run(args, ctx) {
    const { path } = fileInWorkDir(args.filename, 'filename', args.work_dir, ctx.env);
    const existing = statOrNull(path);
    if (existing && !existing.isFile()) throw new InputError(`filename '${printable(args.filename)}' is a directory or special file, not a file`);
    const mode = existing ? existing.mode & 0o777 : args.code.startsWith('#!') ? 0o755 : 0o644;
    writeFileAtomic(path, args.code, mode);
    return { path, bytes: Buffer.byteLength(args.code) };
  },
});
