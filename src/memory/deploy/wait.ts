import { statSync } from 'node:fs';
import { readRange } from '../../core/paths.ts';
import { isAlive } from '../../core/checkpoint/pid.ts';
import type { MemoryClient } from '../client.ts';

export type Health = { ok: true; version: string } | { ok: false; reason: string };

/**
 * Poll the health check until it answers, the time is up, or the server process has exited
 * (`exited` gives its exit code, null while it runs): a server that failed to start is reported
 * at once, not after the whole timeout.
 */
export async function waitHealthy(client: MemoryClient, opts: { timeoutMs: number; exited: () => number | null }): Promise<Health> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const h = await client.health().catch(() => null);
    if (h !== null) return { ok: true, version: h.version };
    const code = opts.exited();
    if (code !== null) return { ok: false, reason: `exited with code ${code} before answering` };
    if (Date.now() >= deadline) return { ok: false, reason: `did not answer its health check within ${Math.round(opts.timeoutMs / 1000)} s` };
    await Bun.sleep(200);
  }
}

/**
 * SIGTERM, then SIGKILL when the process is still there after `graceMs`. start-local gives the
 * server a session of its own, so its process group (workers it forked included) is signalled.
 */
export async function stopProcess(pid: number, graceMs = 10_000): Promise<void> {
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(-pid, s);
    } catch {
      try {
        process.kill(pid, s);
      } catch {
        // already gone
      }
    }
  };
  signal('SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await Bun.sleep(100);
  if (isAlive(pid)) signal('SIGKILL');
}

/** The last lines of a log, joined on one line for an error message. */
export function logTail(file: string, maxLines = 5): string {
  let text: string;
  try {
    const size = statSync(file).size;
    const length = Math.min(size, 4096);
    text = readRange(file, size - length, length).toString('utf8');
  } catch {
    return '(no log)';
  }
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('--- '));
  return lines.length === 0 ? '(empty)' : lines.slice(-maxLines).join(' | ');
}
