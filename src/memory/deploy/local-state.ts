import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeJsonAtomic } from '../../core/atomic.ts';
import { isAlive } from '../../core/checkpoint/pid.ts';
import { parseLine } from '../../core/json-object.ts';
import { readTextOrNull } from '../../core/paths.ts';

/** How a local memory server is deployed: the embedded server, or Letta in docker, singularity/apptainer or a pip venv. */
export const LOCAL_PATHS = ['auto', 'docker', 'singularity', 'pip'] as const;
export type LocalPath = (typeof LOCAL_PATHS)[number];

/**
 * What start-local started, kept in the pid file `<workspace>/.svc/memory/local-server.json`:
 * the background process (pid and its command line, so stop-local can tell it is still ours)
 * and the commands that undo the rest (a container, an instance).
 */
export type LocalRecord = {
  path: LocalPath;
  url: string;
  port: number;
  pid: number | null;
  serve: string[] | null;
  teardown: string[][];
  log: string;
  started_at: string;
};

/**
 * Everything start-local keeps lives in `<workspace>/.svc/memory/`: the pid file, the server log
 * (`server.log`), the embedded server's database (`data/`), Letta's database for singularity
 * (`letta-pgdata/`) and the venv the pip path looks in first (`letta-venv/`).
 */
export function localDir(workspace: string): string {
  return join(workspace, '.svc', 'memory');
}

export const recordFile = (workspace: string) => join(localDir(workspace), 'local-server.json');
export const logFile = (workspace: string) => join(localDir(workspace), 'server.log');

export function readRecord(workspace: string): LocalRecord | null {
  const v = parseLine(readTextOrNull(recordFile(workspace)) ?? '');
  return typeof v?.path === 'string' ? (v as LocalRecord) : null;
}

export function writeRecord(workspace: string, record: LocalRecord): void {
  writeJsonAtomic(recordFile(workspace), record);
}

export function removeRecord(workspace: string): void {
  rmSync(recordFile(workspace), { force: true });
}

/**
 * True when the record's process is alive and still runs the command we started: a pid reused by
 * another program after a reboot is not ours. An interpreter in front (a Python console script)
 * is allowed, so the command's arguments must end the process's command line and its program
 * must appear in it.
 */
export function isOurProcess(record: LocalRecord): boolean {
  if (record.pid === null || record.serve === null || !isAlive(record.pid)) return false;
  const actual = commandLineOf(record.pid);
  if (actual === null) return false;
  const [program, ...args] = record.serve;
  const tail = actual.slice(actual.length - args.length);
  return args.every((a, i) => tail[i] === a) && actual.slice(0, actual.length - args.length).includes(program ?? '');
}

/**
 * Whether a record still describes what start-local started: a container or an instance (its
 * teardown stops it, and its name is ours) does; a bare process only while isOurProcess.
 * The process that runs an instance's runscript is retitled by the runtime, so it cannot be matched.
 */
export function recordIsOurs(record: LocalRecord): boolean {
  return record.teardown.length > 0 || isOurProcess(record);
}

/** A process's arguments from /proc; null where that is not readable. */
export function commandLineOf(pid: number): string[] | null {
  const raw = readTextOrNull(`/proc/${pid}/cmdline`);
  return raw === null ? null : raw.split('\0').filter((a, i, all) => a !== '' || i < all.length - 1);
}
