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

export type CommandRunner = (argv: string[]) => Promise<CommandResult>;

export function systemRunner(env: Record<string, string | undefined> = process.env): CommandRunner {
  return async (argv) => {
    const [cmd = ''] = argv;
    if (!Bun.which(cmd, { PATH: env.PATH ?? '' })) {
      throw new UnavailableError(`${cmd} not found on PATH: Slurm jobs cannot be run from this machine`, 'install the Slurm client or set SVC_EXECUTOR=local');
    }
    const proc = Bun.spawn(argv, { env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { code, stdout, stderr };
  };
}
