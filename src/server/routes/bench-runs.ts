import { Elysia } from 'elysia';
import { estimateCost } from '../../bench/cost.ts';
import { jobConfigsOf } from '../../bench/jobs/queue.ts';
import { REPORT_CSP } from '../../bench/report/html.ts';
import { jobReport, jobReportFile, ReportNotAvailable } from '../../bench/report/job-report.ts';
import { InputError } from '../../core/errors.ts';
import { decodeUrlPart } from '../../http/url-part.ts';
import { CostEstimateBody, RunRequest } from '../../schema/bench-api.ts';
import type { ServerContext } from '../context.ts';
import { eventStreamResponse, sseEvent } from '../event-stream.ts';

/** Benchmark jobs: submit (or estimate) a run, every job, a job's snapshot, its results, its live log; the cost model. */
export const benchRunRoutes = (ctx: ServerContext) =>
  new Elysia({ name: 'bench-runs' })
    .post(
      '/api/bench/run',
      ({ body }) => {
        const jobs = ctx.benchJobs();
        const configs = jobConfigsOf(body);
        if (body.dry_run === true) {
          // a dry run checks the papers as a run would: it says what a run would refuse
          jobs.check(body.paper_ids);
          return { ...jobs.cost.estimateRun(body.paper_ids.length, configs), job_ids: [] };
        }
        const estimated_cost = jobs.cost.estimateCost(configs);
        // submit checks the papers first: a refused run creates nothing
        const created = jobs.submit(body.paper_ids, configs);
        return { dry_run: false, job_ids: created.map((j) => j.job_id), estimated_cost };
      },
      { body: RunRequest },
    )
    // the cost model needs no job store: an estimate opens none
    .post('/api/bench/cost-estimate', ({ body }) => estimateCost(jobConfigsOf(body)), { body: CostEstimateBody })
    // newest first, as a dashboard lists them; the CLI's status reads the same store
    .get('/api/bench/jobs', () => ({ jobs: ctx.benchJobs().list().reverse() }))
    .get('/api/bench/run/:job_id', ({ params }) => ctx.benchJobs().get(params.job_id))
    .get('/api/bench/run/:job_id/results', ({ params }) => {
      const { status, results } = ctx.benchJobs().results(params.job_id);
      return results ?? Response.json({ error: 'results not available', status }, { status: 409 });
    })
    .get('/api/bench/run/:job_id/report', async ({ params, query, request }) => {
      try {
        return await jobReport(ctx.benchJobs(), params.job_id, query, ctx.env, request.signal);
      } catch (err) {
        if (err instanceof ReportNotAvailable) return Response.json({ error: err.message, status: err.status }, { status: 409 });
        throw err;
      }
    })
    .get('/api/bench/run/:job_id/report/:lang/*', ({ params, query }) => {
      const file = params['*'].split('/').map((part) => decodeUrlPart(part, 'report file')).join('/');
      const { path, contentType } = jobReportFile(ctx.benchJobs(), params.job_id, params.lang, file, query.output_root);
      // a report shows text from papers and logs: on the dashboard's origin it must never run anything
      return new Response(Bun.file(path), { headers: { 'content-type': contentType, 'content-security-policy': REPORT_CSP, 'x-content-type-options': 'nosniff' } });
    })
    .get('/api/bench/run/:job_id/logs', ({ params, query, request }) => {
      const after = resumeAfter(request.headers.get('last-event-id'), query.since);
      const batches = ctx.benchJobs().follow(params.job_id, after, request.signal);
      return eventStreamResponse(batches, ({ lines, done }) => {
        const text = lines.map((l) => sseEvent({ ts: l.ts, level: l.level, msg: l.msg }, { id: l.seq, event: 'log' })).join('');
        return { text: done ? text + sseEvent({ status: done }, { event: 'done' }) : text, last: done !== null };
      });
    });

/**
 * The last line a client has: `Last-Event-ID` is the id of the last event it got, `?since=N` the
 * index of the first line it wants (as the reference takes it); with both, the later position wins.
 */
function resumeAfter(lastEventId: string | null, since: string | undefined): number {
  const last = lastEventId === null ? -1 : lineIndex(lastEventId, 'Last-Event-ID');
  const first = since === undefined ? 0 : lineIndex(since, 'since');
  return Math.max(last, first - 1);
}

function lineIndex(text: string, what: string): number {
  if (!/^\d{1,15}$/.test(text.trim())) throw new InputError(`${what} '${text.slice(0, 40)}' is not a log line index`, 'pass the id of the last event received, a whole number from 0');
  return Number(text.trim());
}
