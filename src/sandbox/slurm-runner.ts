/**
 * How the scheduler executors run their commands: one function, so a caller can see (and count)
 * every scheduler query. The system runner refuses a missing binary with the fix in one line.
 */
import { UnavailableError } from '../core/errors.ts';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `stdinPath`: a file fed to the command's stdin (`bsub < script`). */
export type CommandRunner = (argv: string[], stdinPath?: string) => Promise<CommandResult>;

/** `client`: the scheduler named in the missing-binary error. */
export function systemRunner(env: Record<string, string | undefined> = process.env, client = 'Slurm'): CommandRunner {
  return async (argv, stdinPath) => {
    const [cmd = ''] = argv;
    if (!Bun.which(cmd, { PATH: env.PATH ?? '' })) {
      throw new UnavailableError(`${cmd} not found on PATH: ${client} jobs cannot be run from this machine`, `install the ${client} client or set SVC_EXECUTOR=local`);
    }
    const proc = Bun.spawn(argv, { env, stdin: stdinPath ? Bun.file(stdinPath) : 'ignore', stdout: 'pipe', stderr: 'pipe' });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { code, stdout, stderr };
  };
}
