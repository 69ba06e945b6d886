import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const SVC = resolve(import.meta.dir, '../../dist/svc');

export type Run = { code: number; stdout: string; stderr: string };

/** Runs the built binary with a clean environment (HOME pointed at the temp dir unless given). */
export async function svc(args: string[], opts: { cwd: string; env?: Record<string, string>; stdin?: string }): Promise<Run> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: opts.cwd, NO_COLOR: '1', ...opts.env };
  const proc = Bun.spawn([SVC, ...args], { cwd: opts.cwd, env, stdin: opts.stdin === undefined ? 'ignore' : new Blob([opts.stdin]), stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** A fresh directory under the system temp dir (symlinks resolved, so paths compare equal). */
export function tempDir(prefix = 'svc-test-'): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
