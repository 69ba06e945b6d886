import { useState } from 'react';
import { Empty, ErrorMessage, Loading } from '../../../components/states.tsx';
import { useApi } from '../../../use-api.ts';
import type { ClaimGateReport, FileContent, FileList } from '../types.ts';
import { fileApi } from '../urls.ts';
import { GateReport } from './GateReport.tsx';

/** The gate's reports, the final one first: once the paper is final, the draft's verdict is history. */
const REPORTS = [
  { phase: 'final', path: 'evaluation/claim_evidence_hard_gate_final.json' },
  { phase: 'draft', path: 'evaluation/claim_evidence_hard_gate_draft.json' },
];

/** The claim gate's findings: does every number of the paper match what the nodes measured. */
export function ClaimsSection({ id, files }: { id: string; files: FileList }) {
  const present = REPORTS.filter((r) => files.files.some((f) => f.path === r.path));
  const [phase, setPhase] = useState(present[0]?.phase ?? null);
  const chosen = present.find((r) => r.phase === phase);
  if (!chosen)
    return (
      <Empty title="No claim gate findings yet">
        <p>
          This run has no claim gate report. The paper phase's <code>claim_evidence_hard_gate_draft</code> stage checks the draft's numbers against what
          the nodes measured and writes <code>evaluation/claim_evidence_hard_gate_draft.json</code>; <code>claim_evidence_hard_gate_final</code> does
          the same for the refined paper.
        </p>
      </Empty>
    );
  return (
    <>
      {present.length > 1 && (
        <div className="toolbar" role="group" aria-label="Report">
          {present.map((r) => (
            <button key={r.phase} type="button" aria-pressed={r.phase === phase} onClick={() => setPhase(r.phase)}>
              {r.phase === 'final' ? 'Final paper' : 'Draft'}
            </button>
          ))}
        </div>
      )}
      <Report key={chosen.path} id={id} path={chosen.path} />
    </>
  );
}

function Report({ id, path }: { id: string; path: string }) {
  const file = useApi<FileContent>(fileApi(id, path));
  if (file.error) return <ErrorMessage message={file.error} retry={file.reload} />;
  if (!file.data) return <Loading what={path} />;
  let report: ClaimGateReport;
  try {
    report = JSON.parse(file.data.content) as ClaimGateReport;
  } catch {
    return <ErrorMessage message={`${path} is not JSON: the gate may have been stopped while writing it.`} />;
  }
  if (typeof report !== 'object' || report === null || !Array.isArray(report.errors) || !Array.isArray(report.warnings))
    return <ErrorMessage message={`${path} is not a claim gate report: it has no lists of errors and warnings.`} />;
  return <GateReport report={report} path={path} />;
}
