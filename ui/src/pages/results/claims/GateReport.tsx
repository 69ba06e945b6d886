import type { ClaimGateReport, Finding } from '../types.ts';

/** One report of the gate: its verdict, its counts and its findings. */
export function GateReport({ report, path }: { report: ClaimGateReport; path: string }) {
  const metrics = Object.entries(report.metrics ?? {}).filter((e): e is [string, number] => typeof e[1] === 'number');
  return (
    <div className="cards single">
      <section className="card" aria-labelledby="results-gate-title">
        <h2 id="results-gate-title">
          Claim gate on the {report.phase} paper: <span className={`results-verdict results-verdict-${report.status}`}>{report.status}</span>
        </h2>
        <p>
          {report.should_block ? `It blocks the paper${report.reason ? `: ${report.reason}.` : '.'}` : 'It does not block the paper.'} Mode{' '}
          {report.policy?.mode ?? 'unknown'}; {report.errors.length} errors, {report.warnings.length} warnings.
        </p>
        <p className="meta">
          From {path}
          {report.tex_path ? `, checking ${report.tex_path}` : ''}.
        </p>
        {metrics.length > 0 && (
          <dl className="facts results-facts">
            {metrics.map(([k, v]) => (
              <div key={k}>
                <dt>{k.replaceAll('_', ' ')}</dt>
                <dd>{v}</dd>
              </div>
            ))}
          </dl>
        )}
      </section>
      <Findings title="Errors" findings={report.errors} none="No errors: every claim checked has its evidence." />
      <Findings title="Warnings" findings={report.warnings} none="No warnings." />
    </div>
  );
}

function Findings({ title, findings, none }: { title: string; findings: Finding[]; none: string }) {
  return (
    <section className="card" aria-label={title}>
      <h2>
        {title} ({findings.length})
      </h2>
      {findings.length === 0 ? (
        <p className="meta">{none}</p>
      ) : (
        <div className="results-scroll">
          <table className="results-table">
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col">Finding</th>
                <th scope="col">Claimed</th>
                <th scope="col">Measured</th>
                <th scope="col">Where</th>
              </tr>
            </thead>
            <tbody>
              {findings.map((f, i) => (
                <tr key={i}>
                  <td>
                    <code>{f.type}</code>
                  </td>
                  <td>
                    {f.message}
                    {f.key && <span className="meta"> ({f.key})</span>}
                  </td>
                  <td className="num">{f.claimed ?? '–'}</td>
                  <td className="num">{f.evidence?.length ? f.evidence.join(', ') : '–'}</td>
                  <td>{f.where ?? '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
