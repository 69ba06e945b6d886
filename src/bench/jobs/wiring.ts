import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../../core/config/env-vars.ts';
import { ConflictError } from '../../core/errors.ts';
import { estimateCost, estimateRun } from '../cost.ts';
import { PaperRegistry } from '../registry.ts';
import { runBenchJob } from '../worker.ts';
import { ownerGone } from './liveness.ts';
import { BenchJobs, maxJobsFromEnv } from './queue.ts';
import { type ActiveJob, JOBS_DB, JobStore, type RunningJob } from './store.ts';

/**
 * The job queue of the registry at `registryDir` (not started), joined to the paper registry, the
 * three-stage worker and the cost model; `stopper` names who stops it in a stopped job's error.
 */
export function openBenchJobs(env: Env, registryDir: string, claims: 'any' | 'own', stopper?: string): BenchJobs {
  // read before the store opens: a bad value leaves nothing open
  const maxRunning = maxJobsFromEnv(env);
  const papers = PaperRegistry.open(registryDir);
  return new BenchJobs({ store: JobStore.open(registryDir), papers, execute: runBenchJob, cost: { estimateCost, estimateRun }, env, claims, stopper, maxRunning });
}

/** Whether the registry keeps jobs: a reader of a registry that never had any does not create the store. */
export function jobStoreExists(registryDir: string): boolean {
  return existsSync(join(registryDir, JOBS_DB));
}

/**
 * The jobs of a paper that have not ended: queued ones, and running ones whose process is alive
 * (liveness.ts). Reads the store only when the registry has one.
 */
export function activeJobsOf(registryDir: string, paperId: string): ActiveJob[] {
  if (!jobStoreExists(registryDir)) return [];
  const store = JobStore.open(registryDir);
  try {
    return store
      .activeOf(paperId)
      .filter((j) => j.status === 'queued' || !ownerGone(j as RunningJob, null))
      .map((j) => ({ job_id: j.job_id, status: j.status }));
  } finally {
    store.close();
  }
}

/** Refuses to delete a paper that jobs still need (its PDF, its run directories), naming them and the fix. */
export function refuseDeleteWithActiveJobs(registryDir: string, paperId: string): void {
  const active = activeJobsOf(registryDir, paperId);
  if (active.length === 0) return;
  const names = active.map((j) => `${j.job_id} (${j.status})`).join(', ');
  throw new ConflictError(`paper '${paperId}' has jobs that have not ended: ${names}`, 'wait for them to end (svc bench status), or stop the process running them, then delete it');
}
