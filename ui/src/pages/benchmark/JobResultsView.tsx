import { ErrorMessage, Loading } from '../../components/states.tsx';
import { duration, score } from '../../format.ts';
import { useApi } from '../../use-api.ts';
import { LeafGrades } from './LeafGrades.tsx';
import { ReportLinks } from './ReportLinks.tsx';
import type { JobResults } from './types.ts';

/** A completed job's result: the score, how the reproduction ran, each leaf's grade, and the audit report. */
export function JobResultsView({ jobId }: { jobId: string }) {
  const results = useApi<JobResults>(`/api/bench/run/${encodeURIComponent(jobId)}/results`);
  const r = results.data;
  if (results.error) return <ErrorMessage message={results.error} retry={results.reload} />;
  if (!r) return <Loading what="the results" />;
  const g = r.grade;
  const run = r.reproduce_run;
  const control = g?.negative_control;
  return (
    <>
      <section className="card bench-result" aria-labelledby="bench-result-title">
        <h2 id="bench-result-title">Result</h2>
        <p className="bench-score">
          ORS score <strong>{score(r.ors_score, 3)}</strong>
          {g && (
            <span>
              {' '}
              · {g.leaves_passed} of {g.leaves_total} leaves passed
            </span>
          )}
        </p>
        <dl className="facts">
          {g && (
            <div>
              <dt>judge</dt>
              <dd>
                {g.judge_model}, {g.n_runs} {g.n_runs === 1 ? 'run' : 'runs'}
                {g.code_only ? ', code only' : ''}
              </dd>
            </div>
          )}
          <div>
            <dt>reproduction</dt>
            <dd>{!run ? '–' : run.error ? `failed: ${run.error}` : `exit code ${run.exit_code ?? '?'}${run.timed_out ? ', stopped at its time limit' : ''} after ${duration(run.wall_time_sec ?? 0)}`}</dd>
          </div>
          {control && (
            <div>
              <dt>negative control</dt>
              <dd>{control.skipped ? 'skipped' : `empty ${score(control.empty, 3)}, boilerplate ${score(control.boilerplate, 3)}: ${control.passed === null ? 'undecided' : control.passed ? 'passed' : 'not passed'}`}</dd>
            </div>
          )}
          {g?.degraded && (
            <div>
              <dt>degraded</dt>
              <dd>{g.degraded_reason ?? 'yes'}</dd>
            </div>
          )}
          <div>
            <dt>run directory</dt>
            <dd>
              <code>{r.run_dir}</code>
            </dd>
          </div>
        </dl>
      </section>
      <ReportLinks jobId={jobId} />
      {g && <LeafGrades grades={g.leaf_grades} />}
    </>
  );
}
