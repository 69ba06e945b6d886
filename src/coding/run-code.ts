import { extname } from 'node:path';
import { Type as T } from '@sinclair/typebox';
import { InputError, NotFoundError, UnavailableError } from '../core/errors.ts';
import { statOrNull } from '../core/paths.ts';
import { printable } from '../core/text.ts';
import { defineTool, toolParams } from '../mcp/tool.ts';
import { childEnv, EXEC_TOOL_TIMEOUT_S, RESULT_SHAPE, TimeoutParam } from './exec-params.ts';
import { runNodeCommand } from './run-job.ts';
import { fileInWorkDir, WorkDirParam } from './work-dir.ts';
import { runsElsewhere } from '../sandbox/node-command.ts';

/**
 * The program that runs a file, by extension, and what to install when it is missing. JavaScript
 * needs no install: without node on PATH it runs on svc's own runtime (Bun; `BUN_BE_BUN` makes the
 * compiled binary act as the runtime rather than as svc), so a login node without Node.js still runs it.
 */
const INTERPRETERS: Record<string, { program: string; install: string }> = {
  '.py': { program: 'python3', install: 'install Python 3' },
  '.sh': { program: 'bash', install: 'install bash' },
  '.js': { program: 'node', install: 'install Node.js' },
  '.mjs': { program: 'node', install: 'install Node.js' },
  '.cjs': { program: 'node', install: 'install Node.js' },
};

export const runCode = defineTool({
  name: 'run_code',
  description: `Run a file of work_dir with the interpreter its extension names (${Object.entries(INTERPRETERS)
    .map(([ext, i]) => `${ext} ${i.program}`)
    .join(', ')}), in work_dir, stdin closed. Returns ${RESULT_SHAPE}. On timeout the program and every process it started are stopped (timed_out: true).`,
  params: toolParams({
    filename: T.String({ description: 'the file to run, relative to work_dir' }),
    work_dir: WorkDirParam,
    timeout: TimeoutParam,
  }),
  timeoutS: EXEC_TOOL_TIMEOUT_S,
  run(args, ctx) {
    const { dir: cwd, path: file } = fileInWorkDir(args.filename, 'filename', args.work_dir, ctx.env);
    const st = statOrNull(file);
    if (!st) throw new NotFoundError(`no file '${printable(args.filename)}' in ${cwd}`, 'write it first with write_code');
    if (!st.isFile()) throw new InputError(`filename '${printable(args.filename)}' is not a regular file`);
    const ext = extname(file).toLowerCase();
    const interpreter = Object.hasOwn(INTERPRETERS, ext) ? INTERPRETERS[ext] : undefined;
    if (!interpreter) {
      const known = Object.keys(INTERPRETERS).join(', ');
      throw new InputError(`no interpreter for '${ext || printable(args.filename)}' files (run_code runs ${known})`, 'run it with run_bash');
    }
    const env = childEnv(ctx);
    const opts = { cwd, env, timeoutS: args.timeout, signal: ctx.signal, ...(ctx.exec ? { exec: ctx.exec } : {}) };
    // in the node's container or on a compute node, the interpreter there
    if (runsElsewhere(ctx.exec)) return runNodeCommand([interpreter.program, file], opts);
    const program = Bun.which(interpreter.program, { PATH: env.PATH ?? '' });
    if (program) return runNodeCommand([program, file], opts);
    if (interpreter.program === 'node') return runNodeCommand([process.execPath, file], { ...opts, env: { ...env, BUN_BE_BUN: '1' } });
    throw new UnavailableError(`no interpreter for ${ext}: ${interpreter.program} is not on PATH`, interpreter.install);
  },
});
