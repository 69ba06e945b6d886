import { hostname } from 'node:os';
import { isAlive } from '../../core/checkpoint/pid.ts';
import type { RunningJob } from './store.ts';

/**
 * How long a running job's heartbeat may stay silent before its owner counts as gone. Owners
 * refresh it at each poll (every second by default), so only a process that stopped polling, or
 * a host that went away, lets it lapse.
 */
export const JOB_LEASE_MS = 30_000;

/** This host, as job owners record it: a PID means something only on the host that issued it. */
export const HOST = hostname();

/** Tokens of the job queues open in this process: their running jobs are alive while they are open. */
const openQueues = new Set<string>();

export function queueOpened(token: string): void {
  openQueues.add(token);
}

export function queueClosed(token: string): void {
  openQueues.delete(token);
}

/** The queue asking: its token, and the jobs it runs now. */
export type Asker = { token: string; running: ReadonlySet<string> | { has(jobId: string): boolean } };

/**
 * Whether the process running `job` is gone, so the job can be failed. A job of the asking queue
 * that it does not run is gone (its end could not be recorded). A job of this process is alive
 * while its queue is open; of this PID under another token, an earlier process with the same PID.
 * On any host, a heartbeat older than the lease; on this host, at once, a dead PID (a restart
 * after a kill reports it without waiting for the lease). Another host's PID is never checked here.
 */
export function ownerGone(job: RunningJob, asker: Asker | null, now = Date.now()): boolean {
  if (asker && job.owner_token === asker.token) return !asker.running.has(job.job_id);
  const here = job.owner_host === HOST;
  if (here && job.owner_pid === process.pid) return !openQueues.has(job.owner_token);
  if (now - (job.heartbeat_at ?? 0) > JOB_LEASE_MS) return true;
  return here && !isAlive(job.owner_pid);
}
