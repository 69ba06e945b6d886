/**
 * One interface for every batch scheduler experiment code runs on. A job writes its exit code to
 * a file in its state directory; that file, not the scheduler's word, decides COMPLETED against
 * FAILED.
 */
export type ExecutorKind = 'local' | 'slurm' | 'pbs' | 'lsf';

export interface JobSpec {
  /** Bash text run as the job's body; exactly one of script and command. */
  script?: string;
  /** argv run directly (quoted into the body). */
  command?: string[];
  workDir: string;
  name: string;
  wallTimeS: number;
  cpus?: number;
  memGb?: number;
  partition?: string;
  gpus?: number;
  env?: Record<string, string>;
  /** Slurm only: the job's comment, which the jobs a node submits are found by (see node-jobs.ts) */
  comment?: string;
}

export interface JobRef {
  id: string;
  kind: ExecutorKind;
  workDir: string;
}

export type JobState = 'PENDING' | 'RUNNING' | 'COMPLETED' | 'FAILED' | 'ERROR';
export type JobReason = 'TIMEOUT' | 'CANCELLED' | 'OUT_OF_MEMORY' | 'NODE_FAIL';

export interface JobStatus {
  state: JobState;
  reason?: JobReason;
  exitCode: number | null;
}

export interface WaitOptions {
  signal?: AbortSignal;
  /** First poll interval; it grows up to 8x while the job's state does not change. */
  pollMs?: number;
}

export interface Executor {
  readonly kind: ExecutorKind;
  submit(spec: JobSpec): Promise<JobRef>;
  /** Many jobs in one query: the scheduler is asked once, whatever the number of ids. */
  status(ids: string[]): Promise<Map<string, JobStatus>>;
  cancel(id: string): Promise<void>;
  logs(id: string): Promise<{ stdout: string; stderr: string }>;
  wait(id: string, opts?: WaitOptions): Promise<JobStatus>;
}

export function isFinished(s: JobStatus): boolean {
  return s.state === 'COMPLETED' || s.state === 'FAILED' || s.state === 'ERROR';
}
