import { Empty } from '../../components/states.tsx';
import { Markdown } from '../../components/Markdown.tsx';
import { score } from '../../format.ts';
import type { LeafGrade } from './types.ts';

type Report = {
  ors_score?: number;
  raw_score?: number;
  n_runs?: number;
  run_scores?: number[];
  spread?: number;
  degraded?: boolean;
  degraded_reason?: string;
  negative_control?: { passed?: boolean | null; empty?: number | null; boilerplate?: number | null };
  leaves_total?: number;
  leaves_passed?: number;
  code_only?: boolean;
  judge_model?: string;
  graded_at?: string;
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The graded reproduction: reproducibility_report.json's ORS score, runs, spread and trust, and ors_grade.json's leaf grades. */
export function ReproSection({ report, grade }: { report: unknown; grade: unknown }) {
  if (report === undefined && grade === undefined)
    return (
      <Empty title="No reproducibility report yet">
        <p>
          This run has no <code>reproducibility_report.json</code>. The paper phase's <code>ors_grade</code> stage (grade_with_judge) writes it, with
          the leaf grades in <code>ors_grade.json</code>, after <code>ors_run_reproduce</code> has run the reproduction.
        </p>
      </Empty>
    );
  // a legacy run wrote its report as text
  if (typeof report === 'string')
    return (
      <section className="card">
        <h2>Reproducibility report (text)</h2>
        <Markdown text={report} />
      </section>
    );
  const r: Report = { ...(isObject(grade) ? grade : {}), ...(isObject(report) ? report : {}) };
  const leaves = isObject(grade) && Array.isArray(grade.leaf_grades) ? (grade.leaf_grades.filter(isObject) as LeafGrade[]) : [];
  const nc = r.negative_control;
  const facts: [string, string][] = [
    ['ORS score', score(r.ors_score, 3)],
    ['Raw score', score(r.raw_score, 3)],
    ['Runs', r.n_runs === undefined ? '–' : `${r.n_runs}${r.run_scores?.length ? ` (${r.run_scores.map((s) => score(s, 3)).join(', ')})` : ''}`],
    ['Spread', score(r.spread, 3)],
    ['Leaves passed', r.leaves_total === undefined ? '–' : `${r.leaves_passed ?? '–'} of ${r.leaves_total}${r.code_only ? ' (code only)' : ''}`],
    ['Negative control', nc === undefined ? '–' : nc.passed === null || nc.passed === undefined ? 'not decided' : nc.passed ? 'passed' : `failed (empty ${score(nc.empty, 2)}, boilerplate ${score(nc.boilerplate, 2)})`],
    ['Judge', r.judge_model ?? '–'],
  ];
  return (
    <div className="cards single">
      <section className="card" aria-labelledby="results-repro-title">
        <h2 id="results-repro-title">Reproducibility</h2>
        {r.degraded ? (
          <p className="notice error">Degraded: {r.degraded_reason ?? 'the report does not say why'}. The score cannot be fully trusted.</p>
        ) : (
          <p className="notice ok">Not degraded: every leaf was graded and the negative controls held.</p>
        )}
        <dl className="facts results-facts">
          {facts.map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section className="card" aria-labelledby="results-leaves-title">
        <h2 id="results-leaves-title">Leaf grades ({leaves.length})</h2>
        {leaves.length === 0 ? <p className="meta">No leaf grades: ors_grade.json is missing or lists none.</p> : <Leaves leaves={leaves} />}
      </section>
    </div>
  );
}

function Leaves({ leaves }: { leaves: LeafGrade[] }) {
  return (
    <div className="results-scroll">
      <table className="results-table">
        <thead>
          <tr>
            <th scope="col">Leaf</th>
            <th scope="col">Requirement</th>
            <th scope="col">Category</th>
            <th scope="col" className="num">
              Weight
            </th>
            <th scope="col" className="num">
              Score
            </th>
            <th scope="col">Runs</th>
            <th scope="col">Judge's explanation</th>
          </tr>
        </thead>
        <tbody>
          {leaves.map((l) => (
            <tr key={l.leaf_id} className={l.score > 0.5 ? 'results-pass' : 'results-fail'}>
              <td>
                <code>{l.leaf_id}</code>
              </td>
              <td>{l.requirements}</td>
              <td>{l.task_category ?? '–'}</td>
              <td className="num">{l.weight}</td>
              <td className="num">{score(l.score, 2)}</td>
              <td className="nowrap">{Array.isArray(l.runs) ? l.runs.join(' ') : '–'}</td>
              <td>{l.judge_error ? <span className="error-text">{l.judge_error}</span> : l.explanation}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
