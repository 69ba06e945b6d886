import type { Env } from './config/env-vars.ts';
import { definedEnv } from './config/environment.ts';

export type CommandResult = { code: number; stdout: string; stderr: string; timedOut: boolean };

/**
 * Run a command to completion with its output captured; killed once `timeoutMs` passes. The
 * caller has checked that the program exists (Bun.which), so a failure to start is a bug here.
 */
export async function runCommand(cmd: string[], env: Env, timeoutMs: number): Promise<CommandResult> {
  const proc = Bun.spawn(cmd, { env: definedEnv(env), stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    proc.kill('SIGKILL');
  }, timeoutMs);
  try {
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { code, stdout, stderr, timedOut };
  } finally {
    clearTimeout(timer);
  }
}

/** The last non-empty line of a command's output, for one-line error messages. */
export function lastLine(text: string): string | null {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  return lines.at(-1) ?? null;
}

/** A command line as a person would type it, for messages and listings. */
export function shellLine(cmd: string[]): string {
  return cmd.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}
