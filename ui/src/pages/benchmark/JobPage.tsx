import { type ReactNode, useEffect, useState } from 'react';
import { ErrorMessage, Loading } from '../../components/states.tsx';
import { when } from '../../format.ts';
import { href } from '../../route.ts';
import { useApi } from '../../use-api.ts';
import { JobLogView } from './JobLogView.tsx';
import { JobProgress, JobStatusBadge } from './JobProgress.tsx';
import { JobResultsView } from './JobResultsView.tsx';
import type { Job } from './types.ts';
import { useJobLog } from './use-job-log.ts';

/** A job's snapshot is read again this often until it ends (the log comes live meanwhile). */
const REFRESH_MS = 2000;

const ended = (job: Job | undefined) => job?.status === 'completed' || job?.status === 'failed';

/** One job: where it is, its live log, and once completed its result and audit report. */
export function JobPage({ jobId }: { jobId: string }) {
  const [finished, setFinished] = useState(false);
  const snapshot = useApi<Job>(`/api/bench/run/${encodeURIComponent(jobId)}`, { every: finished ? undefined : REFRESH_MS });
  const job = snapshot.data;
  const log = useJobLog(jobId);
  const { reload } = snapshot;
  // a job that ended changes no more; one that cannot be read is not asked for again unasked (Try again does)
  useEffect(() => setFinished(ended(job) || (!job && snapshot.error !== null)), [job, snapshot.error]);
  // the stream says the job ended before the next poll does
  useEffect(() => {
    if (log.done) reload();
  }, [log.done, reload]);
  return (
    <>
      <p>
        <a href={href('benchmark', 'jobs')}>All jobs</a>
      </p>
      <h2 className="bench-job-title">
        Job <code>{jobId}</code>
      </h2>
      {snapshot.error && <ErrorMessage message={snapshot.error} retry={reload} />}
      {!job && !snapshot.error && <Loading what="the job" />}
      {job && (
        <div className="cards">
          <section className="card" aria-label="Job state">
            <dl className="facts">
              <Fact name="paper">
                <a href={href('benchmark', 'papers', job.paper_id)}>{job.paper_id}</a>
              </Fact>
              <Fact name="status">
                <JobStatusBadge status={job.status} />
              </Fact>
              <Fact name="stage">{job.current_stage}</Fact>
              <Fact name="progress">
                <JobProgress job={job} />
              </Fact>
              <Fact name="created">{when(job.created_at)}</Fact>
              <Fact name="started">{job.started_at ? when(job.started_at) : '–'}</Fact>
              <Fact name="ended">{job.ended_at ? when(job.ended_at) : '–'}</Fact>
              {job.error && <Fact name="error">{job.error}</Fact>}
            </dl>
            <details className="bench-configs">
              <summary>Options of the run</summary>
              <pre>{JSON.stringify(job.configs, null, 2)}</pre>
            </details>
          </section>
        </div>
      )}
      <JobLogView log={log} />
      {job?.status === 'completed' && <JobResultsView jobId={jobId} />}
      {job?.status === 'failed' && <p className="notice error">The job failed{job.error ? `: ${job.error}` : ''}. Its results and report exist only for a completed job.</p>}
    </>
  );
}

function Fact({ name, children }: { name: string; children: ReactNode }) {
  return (
    <div>
      <dt>{name}</dt>
      <dd>{children}</dd>
    </div>
  );
}
