import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../../core/config/env-vars.ts';
import { UnavailableError } from '../../core/errors.ts';
import { PaperRegistry, paperRegistryDir } from '../registry.ts';
import { BenchJobs } from './queue.ts';
import { JOBS_DB, JobStore } from './store.ts';
import type { CostModel, JobExecutor } from './types.ts';

/**
 * The one place that joins the job queue to the paper registry, the stage runner and the cost
 * model. This build has the registry but neither the stage runner (src/bench/worker.ts) nor the
 * cost model (src/bench/cost.ts): a job fails at once saying so, and an estimate is refused.
 */
const runStages: JobExecutor = async () => {
  throw new UnavailableError('this svc build has no benchmark stage runner', 'use a build that includes src/bench/worker.ts');
};
const noCostModel = (): never => {
  throw new UnavailableError('this svc build has no benchmark cost model', 'use a build that includes src/bench/cost.ts');
};
const costModel: CostModel = { estimateCost: noCostModel, estimateRun: noCostModel };

/** The registry directory of a workspace (SVC_PAPER_REGISTRY_DIR, else <workspace>/paper_registry). */
export const benchRegistryDir = paperRegistryDir;

/** The job queue of the registry at `registryDir` (not started); `stopper` names who stops it in a stopped job's error. */
export function openBenchJobs(env: Env, registryDir: string, claims: 'any' | 'own', stopper?: string): BenchJobs {
  return new BenchJobs({ store: JobStore.open(registryDir), papers: PaperRegistry.open(registryDir), execute: runStages, cost: costModel, env, claims, stopper });
}

/** Whether the registry already keeps jobs (a dashboard then opens the queue at start, to run queued ones). */
export function benchJobsExist(env: Env, workspaceRoot: string): boolean {
  return existsSync(join(paperRegistryDir(env, workspaceRoot), JOBS_DB));
}
