import { chmodSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunSupervisor } from '../../../src/run/supervisor.ts';
import type { RunHost } from '../../../src/run/start-run.ts';

/**
 * A stand-in for the svc program: a shell script that stays alive (a child `sleep` in its process
 * group, whose PID it writes to `<dir>/sleeper.pid`), so the tests can read the run process's
 * command line and environment. With `ignoreTerm` the whole group ignores SIGTERM.
 */
export function standInProgram(dir: string, opts: { ignoreTerm?: boolean; seconds?: number } = {}): string[] {
  const script = join(dir, 'stand-in.sh');
  const trap = opts.ignoreTerm ? "trap '' TERM\n" : '';
  writeFileSync(script, `#!/bin/sh\n${trap}sleep ${opts.seconds ?? 30} &\necho $! > "${join(dir, 'sleeper.pid')}"\nwait\n`);
  chmodSync(script, 0o755);
  return ['/bin/sh', script];
}

export function host(dir: string, root: string, extra: Partial<RunHost> = {}): RunHost {
  return { checkpointsRoot: root, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir }, cwd: dir, supervisor: new RunSupervisor(), program: standInProgram(dir), ...extra };
}

/**
 * The child reports its start once forked; until it has executed its program, /proc shows this
 * process's command line and environment. Waits for the exec.
 */
async function execed(pid: number): Promise<void> {
  await until(() => {
    try {
      return readlinkSync(`/proc/${pid}/exe`) !== process.execPath && readFileSync(`/proc/${pid}/cmdline`, 'utf8') !== '';
    } catch {
      return false;
    }
  });
}

export async function cmdlineOf(pid: number): Promise<string[]> {
  await execed(pid);
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
}

export async function environOf(pid: number): Promise<Record<string, string>> {
  await execed(pid);
  const pairs = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return Object.fromEntries(pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
}

/** The process group of `pid` (field 5 of /proc/<pid>/stat, after the parenthesised name). */
export function pgidOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // a zombie still answers kill(0); it has stopped running all the same
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Waits for a condition the test cannot be told about (a file a child writes). */
export async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await Bun.sleep(20);
  }
}

/** Ends every run a test started, whatever its kind. */
export async function killAll(supervisor: RunSupervisor): Promise<void> {
  for (const run of supervisor.running()) {
    try {
      process.kill(-run.pgid, 'SIGKILL');
    } catch {
      // already gone
    }
    await run.exited;
  }
}

/** After a test: ends the runs of its supervisors and the stray processes it spawned, emptying both lists. */
export async function endStarted(supervisors: RunSupervisor[], strays: Bun.Subprocess[]): Promise<void> {
  for (const s of supervisors.splice(0)) await killAll(s);
  for (const p of strays.splice(0)) {
    p.kill('SIGKILL');
    await p.exited;
  }
}
