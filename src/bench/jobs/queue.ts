import { randomBytes, randomUUID } from 'node:crypto';
import { dirname } from 'node:path';
import { isAlive } from '../../core/checkpoint/pid.ts';
import { type Env, envValue } from '../../core/config/env-vars.ts';
import { InputError, NotFoundError, oneLine } from '../../core/errors.ts';
import { logFor } from '../../core/log.ts';
import { type JobConfigs, type JobResults, type ManifestEntry, type JobSnapshot, type JobStage, type JobStatus, STAGE_PROGRESS } from '../../schema/bench-api.ts';
import { type FollowBatch, followJobLog } from './follow.ts';
import { HOST, ownerGone, queueClosed, queueOpened } from './liveness.ts';
import type { JobOwner, JobStore } from './store.ts';
import type { CostModel, JobExecutor, PaperLookup, StoredLogLine } from './types.ts';

const log = logFor('svc bench');
const MAX_JOBS_LIMIT = 64;
/** How often a job's last write (its end) is tried when the store refuses it (busy), and the wait between tries. */
const END_WRITE_TRIES = 3;
const END_WRITE_RETRY_MS = 200;

export type BenchJobsOptions = {
  store: JobStore;
  papers: PaperLookup;
  execute: JobExecutor;
  cost: CostModel;
  env: Env;
  /** jobs running at once over the whole store; default SVC_BENCH_MAX_JOBS */
  maxRunning?: number;
  /** 'any': run every queued job (a dashboard); 'own': only those submitted here (a CLI run) */
  claims: 'any' | 'own';
  /** how often jobs queued by other processes, and jobs of dead processes, are looked for */
  pollMs?: number;
  /** how long stop() waits for aborted jobs to end before failing them itself */
  stopGraceMs?: number;
  /** who stops when stop() is called, as a stopped job's error names it; default 'the server' */
  stopper?: string;
};

type Running = { abort: AbortController; done: Promise<void>; stage: JobStage };

/**
 * The benchmark's job queue over a JobStore: jobs are submitted (one per paper), wait as queued,
 * and at most `maxRunning` run at once across every process sharing the store; each process
 * claims jobs atomically, so none runs twice. A job whose process died is failed, naming the stage
 * it was in, and can be submitted again.
 */
export class BenchJobs {
  /** The token tells this queue's jobs from those of another queue, or of an earlier process that had the same PID. */
  readonly owner: JobOwner = { pid: process.pid, host: HOST, token: randomBytes(16).toString('hex') };
  readonly maxRunning: number;
  private readonly running = new Map<string, Running>();
  private readonly own = new Set<string>();
  /** the log followers being read now: stop waits for them to give their last lines */
  private readonly followers = new Set<Promise<void>>();
  /** aborted once the running jobs have been ended by stop: followers read once more and end */
  private readonly closing = new AbortController();
  private timer: ReturnType<typeof setInterval> | null = null;
  private stopping = false;
  private closed = false;

  constructor(private readonly opts: BenchJobsOptions) {
    this.maxRunning = opts.maxRunning ?? maxJobsFromEnv(opts.env);
    queueOpened(this.owner.token);
  }

  get store(): JobStore {
    return this.opts.store;
  }

  /** Fails the jobs of dead processes, then runs queued jobs now and whenever a slot frees or a poll finds one. */
  start(): this {
    if (this.opts.claims === 'any') this.store.addWorker(this.owner);
    this.reapOrphans();
    this.pump();
    this.timer = setInterval(() => {
      try {
        this.store.heartbeat(this.owner, [...this.running.keys()]);
        this.reapOrphans();
      } catch (err) {
        log.warn(`job queue: ${oneLine(err)}`);
      }
      this.pump();
    }, this.opts.pollMs ?? 1000);
    return this;
  }

  /**
   * One queued job per paper. Every id is checked first: an empty list, an unknown paper or one
   * without a PDF refuses the whole request and creates nothing.
   */
  submit(paperIds: readonly string[], configs: JobConfigs): JobSnapshot[] {
    this.check(paperIds);
    const jobs = paperIds.map((paper_id) => ({ job_id: randomUUID().replaceAll('-', ''), paper_id, configs }));
    this.store.insertJobs(jobs);
    for (const j of jobs) {
      this.own.add(j.job_id);
      this.store.appendLog(j.job_id, 'info', `queued: paper ${j.paper_id}`);
    }
    if (this.timer) this.pump();
    return jobs.map((j) => this.get(j.job_id));
  }

  /** Refuses an empty list, an unknown paper, or one without a PDF, naming it and the fix. */
  check(paperIds: readonly string[]): void {
    if (paperIds.length === 0) throw new InputError('paper_ids is empty', 'name at least one paper of the registry (svc bench list)');
    for (const id of paperIds) {
      if (!this.opts.papers.get(id)) throw new NotFoundError(`no paper '${id}' in the registry`, 'import it first (svc bench import), or see svc bench list');
      if (!this.opts.papers.paperPdf(id)) throw new InputError(`paper '${id}' has no PDF, and a job needs one`, 'import it again with its PDF (pdf_path, or svc bench import --pdf <file> --overwrite)');
    }
  }

  get(jobId: string): JobSnapshot {
    const job = this.store.get(jobId);
    if (!job) throw noSuchJob(jobId);
    return job;
  }

  list(): JobSnapshot[] {
    return this.store.list();
  }

  /** The registry the jobs belong to: the store lives in it. */
  get registryDir(): string {
    return dirname(this.store.file);
  }

  /** The registry entry of a job's paper; null once the paper has been deleted. */
  paperOf(jobId: string): ManifestEntry | null {
    return this.opts.papers.get(this.get(jobId).paper_id);
  }

  /** A job's results, or null with its status when it has not completed. */
  results(jobId: string): { status: JobStatus; results: JobResults | null } {
    const { status } = this.get(jobId);
    return { status, results: status === 'completed' ? this.store.results(jobId) : null };
  }

  /**
   * The log after line `afterSeq` (-1: from the start) as it grows, until the job ends (or the
   * queue stops: then after the lines its stop wrote).
   */
  follow(jobId: string, afterSeq: number, signal: AbortSignal): AsyncGenerator<FollowBatch> {
    this.get(jobId);
    return this.tracked(followJobLog(this.store, jobId, afterSeq, signal, { closing: this.closing.signal }));
  }

  /** The whole log of a job as it is now. */
  logLines(jobId: string): StoredLogLine[] {
    this.get(jobId);
    const all: StoredLogLine[] = [];
    for (let lines = this.store.logsAfter(jobId, -1); lines.length > 0; lines = this.store.logsAfter(jobId, lines.at(-1)!.seq)) all.push(...lines);
    return all;
  }

  private async *tracked(batches: AsyncGenerator<FollowBatch>): AsyncGenerator<FollowBatch> {
    const { promise, resolve } = Promise.withResolvers<void>();
    this.followers.add(promise);
    try {
      yield* batches;
    } finally {
      this.followers.delete(promise);
      resolve();
    }
  }

  /** Resolves with the jobs' snapshots once all of them have ended. */
  async settled(jobIds: readonly string[], signal = new AbortController().signal): Promise<JobSnapshot[]> {
    for (const id of jobIds) for await (const b of this.follow(id, Number.MAX_SAFE_INTEGER, signal)) if (b.done) break;
    return jobIds.map((id) => this.get(id));
  }

  get cost(): CostModel {
    return this.opts.cost;
  }

  /** Whether some live process other than this one will pick up queued jobs (a dashboard); one on another host is taken as live. */
  hasOtherWorker(): boolean {
    return this.store.workers().some((w) => w.token !== this.owner.token && (w.host !== HOST || isAlive(w.pid)));
  }

  /**
   * Aborts the running jobs, waits a little for them to end, fails any that did not, lets the log
   * followers give their last lines (as long again at most), and closes the store.
   */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    for (const r of this.running.values()) r.abort.abort();
    await within(Promise.all([...this.running.values()].map((r) => r.done)), this.opts.stopGraceMs ?? 5000);
    try {
      for (const [id, r] of this.running) this.failStopped(id, r.stage);
      if (this.opts.claims === 'any') this.store.removeWorker(this.owner);
    } catch (err) {
      // the next queue to open fails what this one could not
      log.warn(`job queue: ${oneLine(err)}`);
    }
    this.closing.abort();
    await within(Promise.all(this.followers), this.opts.stopGraceMs ?? 5000);
    this.closed = true;
    queueClosed(this.owner.token);
    this.store.close();
  }

  /** Claims queued jobs while slots are free; a store that refuses is told, and tried again at the next poll. */
  private pump(): void {
    try {
      while (!this.stopping) {
        const job = this.store.claimNext(this.owner, this.maxRunning, this.opts.claims === 'own' ? this.own : undefined);
        if (!job) return;
        this.launch(job);
      }
    } catch (err) {
      log.warn(`job queue: ${oneLine(err)}`);
    }
  }

  private launch(job: JobSnapshot): void {
    const abort = new AbortController();
    const entry: Running = { abort, done: Promise.resolve(), stage: job.current_stage };
    this.running.set(job.job_id, entry);
    entry.done = this.execute(job, entry)
      // the store refused the job's last write: the next poll finds the job running but not run here, and fails it
      .catch((err) => log.error(`job ${job.job_id}: ${oneLine(err)}`))
      .finally(() => {
        this.running.delete(job.job_id);
        if (!this.stopping) this.pump();
      });
  }

  private async execute(job: JobSnapshot, entry: Running): Promise<void> {
    const { store, papers } = this.opts;
    const live = () => !this.stopping && this.running.has(job.job_id);
    let end: () => boolean;
    try {
      const paper = papers.get(job.paper_id);
      const pdfPath = papers.paperPdf(job.paper_id);
      if (!paper || !pdfPath) throw new NotFoundError(`paper '${job.paper_id}' or its PDF is no longer in the registry`, 'import it again, then submit the job again');
      store.appendLog(job.job_id, 'info', `started by process ${process.pid}`);
      const results = await this.opts.execute(
        { job_id: job.job_id, paper, pdfPath, runDir: papers.runDir(job.paper_id, job.job_id), configs: job.configs },
        {
          env: this.opts.env,
          signal: entry.abort.signal,
          stage: (stage, progress) => {
            if (!live()) return;
            entry.stage = stage;
            store.setStage(job.job_id, this.owner, stage, progress ?? STAGE_PROGRESS[stage as keyof typeof STAGE_PROGRESS] ?? 0);
          },
          log: (level, msg) => {
            if (live()) store.appendLog(job.job_id, level, msg);
          },
        },
      );
      end = () => store.complete(job.job_id, this.owner, results, 'completed');
    } catch (err) {
      const message = oneLine(err);
      end = () => store.fail(job.job_id, this.owner.token, message, [['error', `failed: ${message}`]]);
    }
    // a job the stop aborted is failed as stopped, unless the store is already closed (stop failed it)
    if (!this.stopping) await retried(end);
    else if (!this.closed) this.failStopped(job.job_id, entry.stage);
  }

  private failStopped(jobId: string, stage: JobStage): void {
    const job = this.store.get(jobId);
    if (job) this.store.fail(jobId, this.owner.token, ...stoppedReason(job.paper_id, stage, `${this.opts.stopper ?? 'the server'} stopped`));
  }

  /**
   * Fails the running jobs whose process is gone (liveness.ts: a dead PID on this host, a lapsed
   * heartbeat on any), and those of this queue it no longer runs (their end could not be written).
   * Run at start and at each poll; a reader that does not start the queue calls it before answering.
   */
  reapOrphans(): void {
    if (this.closed) return;
    for (const job of this.store.running()) {
      if (!ownerGone(job, { token: this.owner.token, running: this.running })) continue;
      const who = job.owner_token === this.owner.token ? `the end of this job could not be recorded (process ${job.owner_pid})` : `the server (process ${job.owner_pid} on ${job.owner_host}) stopped`;
      if (this.store.fail(job.job_id, job.owner_token, ...stoppedReason(job.paper_id, job.current_stage, who))) {
        log.warn(`job ${job.job_id} (paper ${job.paper_id}) was running in a process that is gone: marked failed`);
      }
    }
  }
}

/** A job's last write, tried again while the store refuses it (another process holds it too long). */
async function retried(write: () => boolean): Promise<void> {
  for (let tries = 1; ; tries++) {
    try {
      write();
      return;
    } catch (err) {
      if (tries >= END_WRITE_TRIES) throw err;
      await Bun.sleep(END_WRITE_RETRY_MS);
    }
  }
}

/** Waits for `work`, at most `ms`. */
async function within(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** The error of a job its process left, and its last log line: where it was, and how to run it again. */
function stoppedReason(paperId: string, stage: JobStage, who: string): [string, [['error', string]]] {
  const error = `${who} while this job was in stage ${stage}; it can be run again: svc bench run ${paperId} (or POST /api/bench/run)`;
  return [error, [['error', error]]];
}

export const noSuchJob = (jobId: string) => new NotFoundError(`no benchmark job '${jobId}'`, 'see svc bench status for the jobs there are');

/** SVC_BENCH_MAX_JOBS, a whole number from 1 to 64. */
export function maxJobsFromEnv(env: Env): number {
  const raw = envValue(env, 'SVC_BENCH_MAX_JOBS') ?? '2';
  const n = Number(raw.trim());
  if (!Number.isInteger(n) || n < 1 || n > MAX_JOBS_LIMIT) throw new InputError(`SVC_BENCH_MAX_JOBS must be a whole number from 1 to ${MAX_JOBS_LIMIT}, got '${raw}'`);
  return n;
}

/** The configs a job keeps, from a run request's three config objects (absent ones are empty). */
export function jobConfigsOf(body: { rubric_config?: JobConfigs['rubric']; reproduce_config?: JobConfigs['reproduce']; judge_config?: JobConfigs['judge'] }): JobConfigs {
  return { rubric: body.rubric_config ?? {}, reproduce: body.reproduce_config ?? {}, judge: body.judge_config ?? {} };
}
