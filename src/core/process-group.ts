/** Stopping a command together with everything it started: its own process group. */

const POLL_MS = 25;

/**
 * SIGTERM to the group, then SIGKILL if anything in it outlives the grace period. A SIGKILL takes
 * effect a moment after it is sent: the call waits (briefly) for the group to go, so its answer
 * never reports a process that is still running.
 */
export async function terminateGroup(pgid: number, graceMs: number): Promise<void> {
  if (!signalGroup(pgid, 'SIGTERM')) return;
  if (await groupGoneWithin(pgid, graceMs)) return;
  signalGroup(pgid, 'SIGKILL');
  await groupGoneWithin(pgid, KILL_SETTLE_MS);
}

async function groupGoneWithin(pgid: number, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (performance.now() < deadline) {
    await Bun.sleep(POLL_MS);
    if (!signalGroup(pgid, 0)) return true;
  }
  return false;
}

/** How long a killed group may take to disappear (processes no parent reaps stay as zombies). */
const KILL_SETTLE_MS = 1000;

/** False when no process of the group is left. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

