import type { ReactNode } from 'react';
import { ErrorMessage, Loading } from '../../components/states.tsx';
import { Tabs } from '../../components/Tabs.tsx';
import { href } from '../../route.ts';
import { useApi } from '../../use-api.ts';
import { BundlePanel } from './bundle/BundlePanel.tsx';
import { ClaimsSection } from './claims/ClaimsSection.tsx';
import { FilesSection } from './files/FilesSection.tsx';
import { LineageSection } from './LineageSection.tsx';
import { PaperSection } from './paper/PaperSection.tsx';
import { ReproSection } from './ReproSection.tsx';
import { ReviewSection } from './review/ReviewSection.tsx';
import type { FileList, ResultsSummary } from './types.ts';
import { checkpointApi } from '../../api.ts';

const SECTIONS = [
  { id: 'files', label: 'Files' },
  { id: 'paper', label: 'Paper' },
  { id: 'review', label: 'Review' },
  { id: 'claims', label: 'Claims' },
  { id: 'reproducibility', label: 'Reproducibility' },
  { id: 'lineage', label: 'Lineage' },
  { id: 'bundle', label: 'Artifact bundle' },
];

type Props = { id: string; section: string; rest: string[]; activeId: string | null; reloadActive: () => void };

/** One checkpoint's results, a tab per section; the tab is part of the address. */
export function CheckpointResults({ id, section, rest, activeId, reloadActive }: Props) {
  const base = checkpointApi(id, '');
  const summary = useApi<ResultsSummary>(`${base}/summary`);
  const files = useApi<FileList>(`${base}/files`);
  const known = SECTIONS.some((s) => s.id === section);
  const current = known ? section : 'files';
  // a compile or a save changes what the other sections read
  const reload = () => {
    summary.reload();
    files.reload();
  };
  const needs = (what: string, panel: (s: ResultsSummary, f: FileList) => ReactNode) => {
    if (summary.error) return <ErrorMessage message={summary.error} retry={summary.reload} />;
    if (files.error) return <ErrorMessage message={files.error} retry={files.reload} />;
    if (!summary.data || !files.data) return <Loading what={what} />;
    return panel(summary.data, files.data);
  };
  let panel: ReactNode;
  switch (current) {
    case 'paper':
      panel = needs('the paper', (s, f) => <PaperSection id={id} summary={s} files={f} changed={reload} />);
      break;
    case 'review':
      panel = needs('the review', (s) => <ReviewSection review={s.review} />);
      break;
    case 'claims':
      panel = needs('the claim gate', (_, f) => <ClaimsSection id={id} files={f} />);
      break;
    case 'reproducibility':
      panel = needs('the reproducibility report', (s) => <ReproSection report={s.reproducibility_report} grade={s.ors?.grade} />);
      break;
    case 'lineage':
      panel = <LineageSection id={id} />;
      break;
    case 'bundle':
      panel = <BundlePanel checkpointId={id} />;
      break;
    default:
      panel = <FilesSection id={id} selected={rest.join('/')} activeId={activeId} reloadActive={reloadActive} changed={reload} />;
  }
  return (
    <>
      {!known && <p className="notice error">There is no section “{section}”; showing the files.</p>}
      {summary.data?.problems.map((p) => (
        <p key={p} className="notice error">
          {p}
        </p>
      ))}
      <Tabs tabs={SECTIONS} current={current} onSelect={(s) => (location.hash = href('results', id, s))} label={`Results of ${id}`}>
        {panel}
      </Tabs>
    </>
  );
}
