import { defineCommand } from 'citty';
import { estimateCost } from '../bench/cost.ts';
import { type BenchJobs, noSuchJob } from '../bench/jobs/queue.ts';
import type { StoredLogLine } from '../bench/jobs/types.ts';
import { jobStoreExists, openBenchJobs } from '../bench/jobs/wiring.ts';
import { jobReport, ReportNotAvailable } from '../bench/report/job-report.ts';
import type { Env } from '../core/config/env-vars.ts';
import { loadEnv } from '../core/config/environment.ts';
import { ConflictError } from '../core/errors.ts';
import type { CostEstimate, JobSnapshot } from '../schema/bench-api.ts';
import { jsonArg, registryArg, registryDirOf } from './bench-papers.ts';
import { configArgs, configsFromArgs } from './bench-run-args.ts';
import { fmtCost, fmtTime, print, printJson, table, warn } from './output.ts';

const jobArg = { job_id: { type: 'positional', required: true, description: 'job id (see svc bench status)' } } as const;

/** The queue of the registry, not started: it runs nothing unless asked. */
function queueOf(given: string | undefined, env: Env = loadEnv()): BenchJobs {
  return openBenchJobs(env, registryDirOf(given, env), 'own', `svc bench run (process ${process.pid})`);
}

/**
 * The queue of a registry that keeps jobs, its dead jobs failed first (this queue is not started, so
 * nothing else would): a read never shows a job whose process is gone as running. A registry that
 * never had jobs is not given a job store by a read.
 */
function existingQueue(given: string | undefined): BenchJobs | null {
  const env = loadEnv();
  if (!jobStoreExists(registryDirOf(given, env))) return null;
  const queue = queueOf(given, env);
  try {
    queue.reapOrphans();
  } catch (err) {
    void queue.stop();
    throw err;
  }
  return queue;
}

async function withQueue<T>(queue: BenchJobs, use: (q: BenchJobs) => Promise<T> | T): Promise<T> {
  try {
    return await use(queue);
  } finally {
    await queue.stop();
  }
}

const run = defineCommand({
  meta: { description: 'Create one job per paper and run them here, at most SVC_BENCH_MAX_JOBS at once, printing stages and log lines' },
  args: {
    paper_id: { type: 'positional', required: true, description: 'papers of the registry', valueHint: 'paper_id...' },
    'dry-run': { type: 'boolean', description: 'create nothing: check the papers and print the cost estimate' },
    detach: { type: 'boolean', description: 'only create the jobs, queued, for a running dashboard (svc viz) to run' },
    ...configArgs,
    ...registryArg,
    ...jsonArg,
  },
  async run({ args }) {
    const ids = args._.map(String);
    const configs = configsFromArgs(args);
    return withQueue(queueOf(args.registry), async (jobs) => {
      if (args['dry-run']) {
        jobs.check(ids);
        const estimate = { ...jobs.cost.estimateRun(ids.length, configs), job_ids: [] };
        if (args.json) printJson(estimate);
        else printEstimate(estimate.estimated_cost, `${ids.length} paper(s): about ${estimate.estimated_total_walltime_sec} s of wall time and ${fmtCost(estimate.estimated_total_cost_usd)} in total`);
        return 0;
      }
      const estimated_cost = jobs.cost.estimateCost(configs);
      // submit checks the papers first: a refused run creates nothing
      const created = jobs.submit(ids, configs);
      const jobIds = created.map((j) => j.job_id);
      if (args.detach) {
        if (args.json) printJson({ dry_run: false, job_ids: jobIds, estimated_cost });
        else for (const j of created) print(`${j.job_id}  ${j.paper_id}  queued`);
        // detached jobs wait for a dashboard: say so when none is there to take them
        if (!jobs.hasOtherWorker()) warn('no dashboard is running on this registry: the jobs wait until svc viz starts (or submit them without --detach to run them here)');
        return 0;
      }
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      try {
        jobs.start();
        const done = await Promise.all(created.map((j) => watch(jobs, j, args.json === true, stop.signal)));
        if (args.json) printJson({ dry_run: false, job_ids: jobIds, estimated_cost, jobs: done.map((id) => jobs.get(id)) });
        return done.every((id) => jobs.get(id).status === 'completed') && !stop.signal.aborted ? 0 : 1;
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    });
  },
});

/** Prints a job's stages and log lines as they come (not with --json) until it ends or `signal` aborts; returns its id. */
async function watch(jobs: BenchJobs, job: JobSnapshot, quiet: boolean, signal: AbortSignal): Promise<string> {
  let stage = job.current_stage;
  for await (const batch of jobs.follow(job.job_id, -1, signal)) {
    if (quiet) continue;
    for (const line of batch.lines) print(`${job.paper_id}  ${lineText(line)}`);
    const now = jobs.get(job.job_id);
    if (now.current_stage !== stage && now.status === 'running') print(`${job.paper_id}  stage ${now.current_stage} (${Math.round(now.progress * 100)}%)`);
    stage = now.current_stage;
    if (batch.done) print(`${job.paper_id}  ${batch.done}${now.error ? `: ${now.error}` : ''}`);
  }
  return job.job_id;
}

const lineText = (l: StoredLogLine) => `${l.ts}  ${l.level.padEnd(7)}  ${l.msg}`;

const status = defineCommand({
  meta: { description: 'Show one job, or every job of the registry with its status, stage and progress' },
  args: { job_id: { type: 'positional', required: false, description: 'job id (default: every job)' }, ...registryArg, ...jsonArg },
  async run({ args }) {
    const queue = existingQueue(args.registry);
    if (args.job_id !== undefined) {
      if (!queue) throw noSuchJob(args.job_id);
      const job = await withQueue(queue, (q) => q.get(args.job_id as string));
      if (args.json) printJson(job);
      else for (const [k, v] of Object.entries(job)) print(`${k.padEnd(14)} ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`);
      return 0;
    }
    const all = queue ? await withQueue(queue, (q) => q.list()) : [];
    if (args.json) printJson({ jobs: all });
    else if (all.length === 0) print('no benchmark jobs');
    else print(table(['job', 'paper', 'status', 'stage', 'progress', 'created'], all.map((j) => [j.job_id, j.paper_id, j.status, j.current_stage, `${Math.round(j.progress * 100)}%`, fmtTime(j.created_at)])));
    return 0;
  },
});

const logs = defineCommand({
  meta: { description: "Print a job's log; with -f, follow it until the job ends (exit 0 when it completed, 1 when it failed)" },
  args: { ...jobArg, follow: { type: 'boolean', alias: 'f', description: 'keep printing lines as they come, until the job ends' }, ...registryArg, ...jsonArg },
  async run({ args }) {
    const queue = existingQueue(args.registry);
    if (!queue) throw noSuchJob(args.job_id);
    return withQueue(queue, async (q) => {
      const show = (l: StoredLogLine) => print(args.json ? JSON.stringify(l) : lineText(l));
      if (!args.follow) {
        q.logLines(args.job_id).forEach(show);
        return 0;
      }
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once('SIGINT', onSignal);
      try {
        for await (const batch of q.follow(args.job_id, -1, stop.signal)) {
          batch.lines.forEach(show);
          if (batch.done) return batch.done === 'completed' ? 0 : 1;
        }
        return 1;
      } finally {
        process.off('SIGINT', onSignal);
      }
    });
  },
});

const results = defineCommand({
  meta: { description: 'Print the results of a completed job: its score, leaves and files' },
  args: { ...jobArg, ...registryArg, ...jsonArg },
  async run({ args }) {
    const queue = existingQueue(args.registry);
    if (!queue) throw noSuchJob(args.job_id);
    const { status, results: r } = await withQueue(queue, (q) => q.results(args.job_id));
    if (!r) throw new ConflictError(`results not available: job ${args.job_id} is ${status}`, `see svc bench logs ${args.job_id}`);
    if (args.json) printJson(r);
    else {
      print(`${r.paper_id}  score ${r.ors_score}  (${r.leaves} leaves)`);
      print(`run dir  ${r.run_dir}`);
      print(`rubric   ${r.rubric_path}`);
      print(`repo     ${r.repo_dir}`);
    }
    return 0;
  },
});

const report = defineCommand({
  meta: { description: "Make a completed job's audit report (PDF, HTML, Markdown per language) and print where its files are" },
  args: {
    ...jobArg,
    languages: { type: 'string', description: 'comma list of en, ja, zh (default en)' },
    formats: { type: 'string', description: 'comma list of pdf, html, md (default all three)' },
    'output-root': { type: 'string', description: 'directory inside <registry>/reports (default <registry>/reports/<job_id>)' },
    ...registryArg,
    ...jsonArg,
  },
  async run({ args }) {
    const queue = existingQueue(args.registry);
    if (!queue) throw noSuchJob(args.job_id);
    const made = await withQueue(queue, async (q) => {
      try {
        return await jobReport(q, args.job_id, { languages: args.languages, formats: args.formats, output_root: args['output-root'] }, loadEnv());
      } catch (err) {
        if (err instanceof ReportNotAvailable) throw new ConflictError(`report not available: job ${args.job_id} is ${err.status}`, `see svc bench logs ${args.job_id}`);
        throw err;
      }
    });
    if (args.json) printJson(made);
    else {
      for (const [key, path] of Object.entries(made.paths)) print(`${key.padEnd(8)} ${path}`);
      for (const [key, why] of Object.entries(made.problems ?? {})) warn(`${key}: not made: ${why}`);
    }
    return made.status === 'ok' ? 0 : 1;
  },
});

const cost = defineCommand({
  meta: { description: "Estimate one paper's wall time and model spend for the configs given" },
  args: { ...configArgs, ...registryArg, ...jsonArg },
  async run({ args }) {
    const configs = configsFromArgs(args);
    // the cost model needs no job store: an estimate opens none
    const estimate = estimateCost(configs);
    if (args.json) printJson(estimate);
    else printEstimate(estimate, `one paper: about ${estimate.wall_time_sec} s of wall time and ${fmtCost(estimate.llm_cost_usd)}`);
    return 0;
  },
});

function printEstimate(e: CostEstimate, headline: string): void {
  print(table(['stage', 'wall time (s)', 'cost'], (['rubric', 'reproduce', 'judge'] as const).map((s) => [s, e.breakdown[s].wall_time_sec, fmtCost(e.breakdown[s].cost_usd)])));
  print(headline);
}

/** The job subcommands of `svc bench`. */
export const benchJobCommands = { run, status, logs, results, report, cost };
