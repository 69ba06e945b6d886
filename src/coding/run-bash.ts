import { Type as T } from '@sinclair/typebox';
import { InputError, UnavailableError } from '../core/errors.ts';
import { defineTool, toolParams } from '../mcp/tool.ts';
import { childEnv, EXEC_TOOL_TIMEOUT_S, RESULT_SHAPE, TimeoutParam } from './exec-params.ts';
import { runNodeCommand } from './run-job.ts';
import { runsElsewhere } from '../sandbox/node-command.ts';
import { openWorkDir, WorkDirParam } from './work-dir.ts';

export const runBash = defineTool({
  name: 'run_bash',
  description: `Run a shell command with bash -c in work_dir, stdin closed. Returns ${RESULT_SHAPE}. On timeout the command and every process it started are stopped (timed_out: true).`,
  params: toolParams({
    command: T.String({ description: 'the bash command line' }),
    work_dir: WorkDirParam,
    timeout: TimeoutParam,
  }),
  timeoutS: EXEC_TOOL_TIMEOUT_S,
  run(args, ctx) {
    if (args.command.trim() === '') throw new InputError('command is empty', 'give the shell command to run');
    const cwd = openWorkDir(args.work_dir, ctx.env);
    const env = childEnv(ctx);
    // in the node's container or on a compute node, the bash there
    const bash = runsElsewhere(ctx.exec) ? 'bash' : Bun.which('bash', { PATH: env.PATH ?? '' });
    if (!bash) throw new UnavailableError('bash is not on PATH', 'install bash or add it to PATH');
    return runNodeCommand([bash, '-c', args.command], { cwd, env, timeoutS: args.timeout, signal: ctx.signal, ...(ctx.exec ? { exec: ctx.exec } : {}) });
  },
});
