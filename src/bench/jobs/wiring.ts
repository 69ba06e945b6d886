import type { Env } from '../../core/config/env-vars.ts';
import { UnavailableError } from '../../core/errors.ts';
import type { BenchJobs } from './queue.ts';

/**
 * The job queue of the workspace's paper registry, with the real three-stage executor and cost
 * model: the one place that joins the queue to the paper registry and the stages' bridge.
 */
export function openBenchJobs(_env: Env, _workspaceRoot: string, _claims: 'any' | 'own'): BenchJobs {
  throw new UnavailableError('benchmark jobs need the paper registry and the stage runner, which this build lacks', 'use a build that includes src/bench/registry.ts and src/bench/worker.ts');
}

/** Whether the registry already keeps jobs (a dashboard then opens the queue at start, to run queued ones). */
export function benchJobsExist(_env: Env, _workspaceRoot: string): boolean {
  return false;
}
