import type { Job } from './types.ts';

/** The job's progress as a bar and its number; the stage names what it does now. */
export function JobProgress({ job }: { job: Job }) {
  const pct = Math.round(job.progress * 100);
  return (
    <span className="bench-progress">
      <progress max={100} value={pct} aria-label={`Progress of ${job.job_id}`} />
      <span>{pct}%</span>
    </span>
  );
}

/** The job's status in words, coloured by it. */
export function JobStatusBadge({ status }: { status: Job['status'] }) {
  return <span className={`bench-status bench-status-${status}`}>{status}</span>;
}
