import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../../core/config/env-vars.ts';
import { estimateCost, estimateRun } from '../cost.ts';
import { PaperRegistry, paperRegistryDir } from '../registry.ts';
import { runBenchJob } from '../worker.ts';
import { BenchJobs, maxJobsFromEnv } from './queue.ts';
import { JOBS_DB, JobStore } from './store.ts';

/** The registry directory of a workspace (SVC_PAPER_REGISTRY_DIR, else <workspace>/paper_registry). */
export const benchRegistryDir = paperRegistryDir;

/**
 * The job queue of the registry at `registryDir` (not started), joined to the paper registry, the
 * three-stage worker and the cost model; `stopper` names who stops it in a stopped job's error.
 */
export function openBenchJobs(env: Env, registryDir: string, claims: 'any' | 'own', stopper?: string): BenchJobs {
  // read before the store opens: a bad value leaves nothing open
  const maxRunning = maxJobsFromEnv(env);
  return new BenchJobs({ store: JobStore.open(registryDir), papers: PaperRegistry.open(registryDir), execute: runBenchJob, cost: { estimateCost, estimateRun }, env, claims, stopper, maxRunning });
}

/** Whether the registry already keeps jobs (a dashboard then opens the queue at start, to run queued ones). */
export function benchJobsExist(env: Env, workspaceRoot: string): boolean {
  return existsSync(join(paperRegistryDir(env, workspaceRoot), JOBS_DB));
}
