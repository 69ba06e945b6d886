import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic.ts';

export const PID_FILE = '.svc_pid';
/** written by the reference implementation; read so its running checkpoints show as running */
const LEGACY_PID_FILE = '.ari_pid';

/** The PID recorded in a checkpoint, or null when none (empty, non-numeric or ≤ 0 count as none). */
export function readPid(dir: string): number | null {
  for (const name of [PID_FILE, LEGACY_PID_FILE]) {
    let text: string;
    try {
      text = readFileSync(join(dir, name), 'utf8').trim();
    } catch {
      continue;
    }
    const pid = /^\d+$/.test(text) ? Number(text) : 0;
    return pid > 0 ? pid : null;
  }
  return null;
}

export function writePid(dir: string, pid = process.pid): void {
  writeFileAtomic(join(dir, PID_FILE), `${pid}\n`);
}

/** A process we may not signal (EPERM) still exists, so it counts as alive. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function runningPid(dir: string): number | null {
  const pid = readPid(dir);
  return pid !== null && isAlive(pid) ? pid : null;
}
