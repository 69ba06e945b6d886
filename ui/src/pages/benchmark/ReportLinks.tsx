import { useState } from 'react';
import { getJson, withToken } from '../../api.ts';
import type { Report } from './types.ts';

const LANGUAGES = [
  ['en', 'English'],
  ['ja', 'Japanese'],
  ['zh', 'Chinese'],
] as const;

const FORMAT_NAMES: Record<string, string> = { html: 'HTML', pdf: 'PDF', md: 'Markdown' };

/** Makes the job's audit report on request (PDF takes LaTeX, so it is not made unasked) and links its files. */
export function ReportLinks({ jobId }: { jobId: string }) {
  const [language, setLanguage] = useState('en');
  const [report, setReport] = useState<Report | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const make = async () => {
    setBusy(true);
    setError(null);
    try {
      setReport(await getJson<Report>(`/api/bench/run/${encodeURIComponent(jobId)}/report?languages=${language}&formats=html,pdf`));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card" aria-labelledby="bench-report-title">
      <h2 id="bench-report-title">Audit report</h2>
      <div className="toolbar">
        <label>
          Language
          <select value={language} onChange={(e) => setLanguage(e.target.value)}>
            {LANGUAGES.map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <button type="button" disabled={busy} onClick={() => void make()}>
          {busy ? 'Making the report…' : report ? 'Make it again' : 'Make the audit report'}
        </button>
      </div>
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      {report && (
        <>
          <ul className="bench-report-links">
            {Object.entries(report.download_urls).map(([key, url]) => {
              const [lang, format = ''] = key.split('/');
              return (
                <li key={key}>
                  <a href={withToken(url)} target="_blank" rel="noopener">
                    {FORMAT_NAMES[format] ?? format} report ({lang})
                  </a>
                </li>
              );
            })}
          </ul>
          {report.problems &&
            Object.entries(report.problems).map(([key, why]) => (
              <p key={key} className="notice error">
                {key} was not made: {why}
              </p>
            ))}
        </>
      )}
    </section>
  );
}
