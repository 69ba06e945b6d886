import { appendFileSync, closeSync, openSync } from 'node:fs';
import type { Env } from '../../core/config/env-vars.ts';
import { definedEnv } from '../../core/config/environment.ts';
import { UnavailableError } from '../../core/errors.ts';
import { MemoryClient } from '../client.ts';
import { withLocalLock } from './local-lock.ts';
import { isOurProcess, type LocalPath, recordIsOurs, type LocalRecord, localDir, logFile, readRecord, removeRecord, writeRecord } from './local-state.ts';
import type { LaunchPlan } from './launch-plan.ts';
import { planFor } from './plan.ts';
import { lastLine, runCommand, shellLine } from '../../core/run-command.ts';
import { localTarget } from './target.ts';
import { logTail, stopProcess, waitHealthy } from './wait.ts';
import { makeOwnDir } from '../../core/workspace.ts';

export type StartResult = {
  /** true when this call started it */
  started: boolean;
  url: string;
  path: LocalPath | null;
  pid: number | null;
  version: string | null;
  /** what happened, for people */
  message: string;
};

/** Setup commands (an image pull included) may take this long. */
const SETUP_TIMEOUT_MS = 15 * 60_000;

/**
 * Start a local memory server for the workspace in the background and wait until it answers its
 * health check. Idempotent: a server we started that still answers is left running, and so is
 * one that answers at MEMBACKEND_BASE_URL without being ours. A server that does not come up is
 * stopped again, and the error carries the end of its log. Calls that overlap take turns.
 */
export async function startLocal(workspace: string, env: Env, path: LocalPath): Promise<StartResult> {
  // a URL no local server can serve is refused before the lock leaves a directory behind
  localTarget(env);
  return withLocalLock(workspace, () => start(workspace, env, path));
}

async function start(workspace: string, env: Env, path: LocalPath): Promise<StartResult> {
  const { url, port, host } = localTarget(env);
  const existing = readRecord(workspace);
  const probe = new MemoryClient({ baseUrl: url, timeoutMs: 2000 });
  const health = await probe.health().catch(() => null);
  if (existing !== null && health !== null && recordIsOurs(existing)) {
    return { started: false, url, path: existing.path, pid: existing.pid, version: health.version, message: `already running (${existing.path}) at ${url}` };
  }
  if (existing !== null) await teardown(workspace, existing, env);
  if (health !== null) {
    return { started: false, url, path: null, pid: null, version: health.version, message: `a memory server already answers at ${url}; it was not started by svc memory start-local, so it is left alone` };
  }
  const plan = await planFor(path, { workspace, port, host, env });
  for (const dir of [localDir(workspace), ...plan.dirs]) makeOwnDir(dir);
  const log = logFile(workspace);
  appendLog(log, `--- ${new Date().toISOString()} start-local --path ${path}: ${[...plan.setup, ...(plan.serve ? [plan.serve] : [])].map(shellLine).join(' ; ')}\n`);
  const record: LocalRecord = { path, url, port, pid: null, serve: plan.serve, teardown: plan.teardown, log, started_at: new Date().toISOString() };
  for (const cmd of plan.setup) {
    const r = await runCommand(cmd, env, SETUP_TIMEOUT_MS);
    appendLog(log, r.stdout + r.stderr);
    if (r.code !== 0) throw new UnavailableError(`${shellLine(cmd.slice(0, 3))} failed (exit ${r.code}): ${lastLine(r.stderr) ?? lastLine(r.stdout) ?? 'no output'}`, `see ${log}`);
  }
  // from here on there is something to undo: recorded before waiting, so stop-local finds it
  writeRecord(workspace, record);
  const child = plan.serve ? spawnServe(plan, env, log) : null;
  if (child) writeRecord(workspace, { ...record, pid: child.pid });
  const up = await waitHealthy(probe, { timeoutMs: plan.startTimeoutMs, exited: child ? () => child.exitCode : () => null });
  if (!up.ok) {
    if (child) await stopProcess(child.pid);
    await teardown(workspace, readRecord(workspace) ?? record, env);
    throw new UnavailableError(`the memory server (${path}) ${up.reason} at ${url}`, `log ${log}: ${logTail(log)}`);
  }
  child?.unref();
  return { started: true, url, path, pid: child?.pid ?? null, version: up.version, message: `started (${path}) at ${url}` };
}

export type StopResult = { stopped: boolean; message: string; warnings: string[] };

/**
 * Stop what start-local started for this workspace, and nothing else: the recorded process only
 * when it still runs the recorded command, then the recorded teardown (container, instance).
 * A stale pid file is removed.
 */
export function stopLocal(workspace: string, env: Env): Promise<StopResult> {
  // nothing recorded: no turn to wait for, and no lock file to create a directory for
  if (readRecord(workspace) === null) return Promise.resolve(NOTHING_TO_STOP);
  return withLocalLock(workspace, () => stop(workspace, env));
}

const NOTHING_TO_STOP: StopResult = { stopped: false, message: 'no local memory server was started here (no pid file)', warnings: [] };

async function stop(workspace: string, env: Env): Promise<StopResult> {
  const record = readRecord(workspace);
  if (record === null) return NOTHING_TO_STOP;
  const ours = isOurProcess(record);
  const warnings = await teardown(workspace, record, env);
  if (record.pid !== null && !ours && record.teardown.length === 0) {
    return { stopped: false, message: `removed a stale pid file (process ${record.pid} is gone or runs something else)`, warnings };
  }
  return { stopped: true, message: `stopped the ${record.path} memory server at ${record.url}`, warnings };
}

/** stop-local, then start-local with the given path or the one that was running (auto when none was). */
export function restartLocal(workspace: string, env: Env, path?: LocalPath): Promise<StartResult> {
  return withLocalLock(workspace, async () => {
    const previous = readRecord(workspace);
    await stop(workspace, env);
    return start(workspace, env, path ?? previous?.path ?? 'auto');
  });
}

/** Stop the record's process if it is ours, run its teardown commands, drop the pid file. Never throws: returns what failed. */
async function teardown(workspace: string, record: LocalRecord, env: Env): Promise<string[]> {
  const warnings: string[] = [];
  if (record.pid !== null && isOurProcess(record)) await stopProcess(record.pid);
  for (const cmd of record.teardown) {
    const program = cmd[0];
    if (program === undefined || Bun.which(program, { PATH: env.PATH ?? '' }) === null) {
      warnings.push(`${program ?? 'teardown'} is no longer available; did not run: ${shellLine(cmd)}`);
      continue;
    }
    const r = await runCommand(cmd, env, 60_000);
    if (r.code !== 0) warnings.push(`${shellLine(cmd)} failed: ${lastLine(r.stderr) ?? `exit ${r.code}`}`);
  }
  removeRecord(workspace);
  return warnings;
}

/** The server process, in its own session so it outlives the command that started it. */
function spawnServe(plan: LaunchPlan, env: Env, log: string) {
  const fd = openSync(log, 'a');
  try {
    return Bun.spawn(plan.serve ?? [], { env: definedEnv(env), stdio: ['ignore', fd, fd], detached: true });
  } finally {
    closeSync(fd);
  }
}

function appendLog(file: string, text: string): void {
  if (text !== '') appendFileSync(file, text);
}
