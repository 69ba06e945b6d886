import type { Env } from '../../core/config/env-vars.ts';
import type { CostEstimate, JobConfigs, JobLogEntry, JobResults, JobStage, LogLevel, ManifestEntry } from '../../schema/bench-api.ts';
import type { RunEstimate } from '../cost.ts';

/**
 * What the job queue needs of the paper registry: the entry of a paper, its PDF (null when it has
 * none, so it cannot run), and where a job's files go. The registry is passed in, so the queue
 * works on any registry (and tests give it one over a temp directory).
 */
export type PaperLookup = {
  get(paperId: string): ManifestEntry | null;
  paperPdf(paperId: string): string | null;
  runDir(paperId: string, jobId: string): string;
};

/** One job as its executor gets it. */
export type BenchJobInput = { job_id: string; paper: ManifestEntry; pdfPath: string; runDir: string; configs: JobConfigs };

/**
 * What an executor may do while it runs: read the environment, watch `signal` (aborted when the
 * queue stops), report the stage it enters (progress from STAGE_PROGRESS when not given) and log.
 */
export type JobContext = {
  env: Env;
  signal: AbortSignal;
  stage(stage: JobStage, progress?: number): void;
  log(level: LogLevel, msg: string): void;
};

/** Runs one job's three stages; a throw fails the job with the error's message. */
export type JobExecutor = (job: BenchJobInput, ctx: JobContext) => Promise<JobResults>;

/** The cost model (src/bench/cost.ts): one paper, and a run of `paperCount` papers (the dry-run answer). */
export type CostModel = {
  estimateCost(configs: JobConfigs): CostEstimate;
  estimateRun(paperCount: number, configs: JobConfigs): RunEstimate;
};

/** A log line as stored: the entry and its index in the job's log (the event id). */
export type StoredLogLine = JobLogEntry & { seq: number };
