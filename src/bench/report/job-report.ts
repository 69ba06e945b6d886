import type { Env } from '../../core/config/env-vars.ts';
import { NotFoundError } from '../../core/errors.ts';
import type { JobStatus } from '../../schema/bench-api.ts';
import type { BenchJobs } from '../jobs/queue.ts';
import { downloadUrls, reportFile } from './files.ts';
import { parseReportQuery } from './query.ts';
import { type AuditReport, renderAuditReport } from './render.ts';

export type ReportQueryText = { languages?: string; formats?: string; output_root?: string };
export type JobReport = AuditReport & { output_root: string; download_urls: Record<string, string> };

/** The report of a job that has not completed: not an error of the request, a state of the job. */
export class ReportNotAvailable extends Error {
  constructor(readonly status: JobStatus) {
    super('report not available');
  }
}

/**
 * The audit report of a completed job, made (again) in the languages and formats asked for, with
 * the URL of each file made. GET /api/bench/run/<job_id>/report and `svc bench report` both call it.
 */
export async function jobReport(jobs: BenchJobs, jobId: string, query: ReportQueryText, env: Env, signal?: AbortSignal): Promise<JobReport> {
  const job = jobs.get(jobId);
  const { outputRoot, languages, formats } = parseReportQuery(query, { registryRoot: jobs.registryDir, jobId });
  const { status, results } = jobs.results(jobId);
  if (!results) throw new ReportNotAvailable(status);
  const paper = jobs.paperOf(jobId);
  if (!paper) throw new NotFoundError(`paper ${job.paper_id} of job ${jobId} is no longer in the registry`, 'its run directory went with it: import the paper and run it again');
  const report = await renderAuditReport({ job, paper, results, runDir: results.run_dir, outputRoot, languages, formats, env, signal });
  // files outside the default place are fetched with the same output_root
  const custom = query.output_root?.trim() ? `?output_root=${encodeURIComponent(query.output_root.trim())}` : '';
  const urls = Object.fromEntries(Object.entries(downloadUrls(jobId, report.paths)).map(([k, url]) => [k, url + custom]));
  return { ...report, output_root: outputRoot, download_urls: urls };
}

/** A file of a job's report (GET /api/bench/run/<job_id>/report/<lang>/<file>), from the output root it was made in. */
export function jobReportFile(jobs: BenchJobs, jobId: string, lang: string, file: string, outputRoot?: string): { path: string; contentType: string } {
  jobs.get(jobId);
  return reportFile(parseReportQuery({ output_root: outputRoot }, { registryRoot: jobs.registryDir, jobId }).outputRoot, lang, file);
}
