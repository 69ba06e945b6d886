import { ErrorMessage, Loading } from '../../components/states.tsx';
import { useApi } from '../../use-api.ts';
import type { DoctorReport, DoctorRow } from './types.ts';

const STATUS_CLASS: Record<DoctorRow['status'], string> = { ok: 'status-done', warn: 'status-warn', fail: 'status-failed', skip: '' };

/** The doctor's table: each thing svc will use, whether it works, and the fix of what does not. */
export function HealthSection() {
  const report = useApi<DoctorReport>('/api/doctor');
  return (
    <section className="card" aria-labelledby="settings-health">
      <h2 id="settings-health">Health</h2>
      <p className="meta">What svc will use on this machine and whether it works, as <code>svc doctor</code> reports it.</p>
      {report.error && <ErrorMessage message={report.error} retry={report.reload} />}
      {!report.error && !report.data && <Loading what="the health checks" />}
      {report.data && (
        <>
          <p className={`notice ${report.data.ok ? 'ok' : 'error'}`} data-testid="doctor-verdict">
            {report.data.ok ? 'Ready: everything the workflow needs works.' : `Not ready: ${failedNeeded(report.data.rows)}.`}
          </p>
          <div className="settings-scroll">
            <table className="settings-table settings-health">
              <thead>
                <tr>
                  <th scope="col">Status</th>
                  <th scope="col">Area</th>
                  <th scope="col">Item</th>
                  <th scope="col">Detail</th>
                </tr>
              </thead>
              <tbody>
                {/* a report's rows never reorder, and its items may repeat across areas: the index is the key */}
                {report.data.rows.map((r, i) => (
                  <tr key={i} data-area={r.area} data-item={r.item}>
                    <td className="settings-status">
                      <span className={`status ${STATUS_CLASS[r.status]}`}>{r.status === 'fail' && !r.needed ? 'fail (unused)' : r.status}</span>
                    </td>
                    <td>{r.area}</td>
                    <th scope="row">{r.item}</th>
                    <td className="meta">
                      {r.detail}
                      {r.fix && r.status !== 'ok' && <span className="settings-fix">Fix: {r.fix}</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <button type="button" className="settings-recheck" onClick={report.reload}>
            Check again
          </button>
        </>
      )}
    </section>
  );
}

function failedNeeded(rows: DoctorRow[]): string {
  return rows
    .filter((r) => r.needed && r.status === 'fail')
    .map((r) => `${r.area} ${r.item}`)
    .join(', ');
}
