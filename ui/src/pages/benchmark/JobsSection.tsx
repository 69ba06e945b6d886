import { Empty, ErrorMessage, Loading } from '../../components/states.tsx';
import { when } from '../../format.ts';
import { href } from '../../route.ts';
import { useApi } from '../../use-api.ts';
import { JobProgress, JobStatusBadge } from './JobProgress.tsx';
import type { JobsAnswer } from './types.ts';

/** Jobs move through their stages meanwhile. */
const REFRESH_MS = 2000;

/** Every benchmark job, newest first: paper, stage, progress, status. */
export function JobsSection() {
  const list = useApi<JobsAnswer>('/api/bench/jobs', { every: REFRESH_MS });
  const jobs = list.data?.jobs;
  if (list.error && !jobs) return <ErrorMessage message={list.error} retry={list.reload} />;
  if (!jobs) return <Loading what="the jobs" />;
  if (jobs.length === 0)
    return (
      <Empty title="No benchmark jobs yet">
        <p>
          A job reproduces one paper: rubric, reproduction, judging. Start some from <a href={href('benchmark', 'run')}>Run</a>.
        </p>
      </Empty>
    );
  return (
    <>
      {list.error && <ErrorMessage message={list.error} retry={list.reload} />}
      <table className="bench-table bench-jobs">
        <caption className="bench-count">{jobs.length === 1 ? '1 job' : `${jobs.length} jobs`}</caption>
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">Paper</th>
            <th scope="col">Stage</th>
            <th scope="col">Progress</th>
            <th scope="col">Status</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((j) => (
            <tr key={j.job_id} data-id={j.job_id}>
              <td data-label="Job">
                <a href={href('benchmark', 'jobs', j.job_id)}>
                  <code>{j.job_id.slice(0, 12)}</code>
                </a>
              </td>
              <td data-label="Paper">{j.paper_id}</td>
              <td data-label="Stage">{j.current_stage}</td>
              <td data-label="Progress">
                <JobProgress job={j} />
              </td>
              <td data-label="Status">
                <JobStatusBadge status={j.status} />
              </td>
              <td data-label="Created">{when(j.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
