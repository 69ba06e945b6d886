import { type FormEvent, useEffect, useState } from 'react';
import { postJson } from '../../api.ts';
import { Empty, ErrorMessage, Loading } from '../../components/states.tsx';
import { href } from '../../route.ts';
import { useApi } from '../../use-api.ts';
import { CostEstimateView } from './CostEstimateView.tsx';
import { LicenseBadge } from './LicenseBadge.tsx';
import { RunOptionsFields } from './RunOptionsFields.tsx';
import { configsOf, DEFAULT_OPTIONS, type RunOptions } from './run-options.ts';
import type { CostEstimate, DryRun, PapersAnswer, RunAnswer } from './types.ts';

/** Waits this long after the last change before asking for an estimate: one request per pause in typing. */
const ESTIMATE_DELAY_MS = 300;

/** The run form: papers, the run's options, the API's cost estimate, then the jobs submitted. */
export function RunSection() {
  const list = useApi<PapersAnswer>('/api/bench/papers');
  const [chosen, setChosen] = useState<string[]>([]);
  const [options, setOptions] = useState<RunOptions>(DEFAULT_OPTIONS);
  const [estimate, setEstimate] = useState<{ cost: CostEstimate; run: DryRun | null } | null>(null);
  const [estimateError, setEstimateError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // a dry run checks the papers as a run would: a paper the run would refuse is named before submitting
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      const configs = configsOf(options);
      const ask = chosen.length > 0 ? postJson<DryRun>('/api/bench/run', { paper_ids: chosen, ...configs, dry_run: true }).then((run) => ({ cost: run.estimated_cost, run })) : postJson<CostEstimate>('/api/bench/cost-estimate', configs).then((cost) => ({ cost, run: null }));
      ask
        .then((e) => current && (setEstimate(e), setEstimateError(null)))
        .catch((err: unknown) => current && setEstimateError((err as Error).message));
    }, ESTIMATE_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [chosen, options]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await postJson<RunAnswer>('/api/bench/run', { paper_ids: chosen, ...configsOf(options) });
      const [only] = answer.job_ids;
      location.hash = answer.job_ids.length === 1 && only ? href('benchmark', 'jobs', only) : href('benchmark', 'jobs');
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };

  const papers = list.data?.papers;
  if (list.error && !papers) return <ErrorMessage message={list.error} retry={list.reload} />;
  if (!papers) return <Loading what="the paper registry" />;
  if (papers.length === 0)
    return (
      <Empty title="No papers to run">
        <p>
          A run reproduces papers of the registry: <a href={href('benchmark', 'papers')}>import one</a> first.
        </p>
      </Empty>
    );
  const toggle = (id: string, on: boolean) => setChosen((c) => (on ? [...c, id] : c.filter((x) => x !== id)));
  return (
    <form className="bench-run" onSubmit={(e) => void submit(e)} aria-label="Run the benchmark">
      <fieldset className="card">
        <legend>Papers</legend>
        <ul className="bench-choices">
          {papers.map((p) => (
            <li key={p.paper_id}>
              <label>
                <input type="checkbox" checked={chosen.includes(p.paper_id)} onChange={(e) => toggle(p.paper_id, e.target.checked)} />
                <span>
                  {p.title} <code>{p.paper_id}</code>
                </span>
              </label>
              <LicenseBadge assessment={p.license_assessment} />
            </li>
          ))}
        </ul>
      </fieldset>
      <RunOptionsFields options={options} onChange={setOptions} />
      <section className="card" aria-labelledby="bench-cost-title">
        <h2 id="bench-cost-title">Cost estimate</h2>
        {estimateError && (
          <p className="notice error" role="alert">
            {estimateError}
          </p>
        )}
        {estimate ? <CostEstimateView estimate={estimate.cost} run={estimate.run} /> : !estimateError && <Loading what="the estimate" />}
      </section>
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      <div className="bench-buttons">
        <button type="submit" disabled={busy || chosen.length === 0}>
          {chosen.length === 0 ? 'Choose papers to run' : `Start ${chosen.length} ${chosen.length === 1 ? 'job' : 'jobs'}`}
        </button>
      </div>
    </form>
  );
}
