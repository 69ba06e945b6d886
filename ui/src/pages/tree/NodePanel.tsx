import { ErrorMessage, Loading } from '../../components/states.tsx';
import { Tabs } from '../../components/Tabs.tsx';
import { score } from '../../format.ts';
import { type Loaded, useApi } from '../../use-api.ts';
import { MemoryOfNode } from '../memory/MemoryOfNode.tsx';
import { statusKind } from './colour.ts';
import { CodeTab } from './CodeTab.tsx';
import type { PlacedNode } from './layout.ts';
import { MetricsTab } from './MetricsTab.tsx';
import { ReportTab } from './ReportTab.tsx';
import { TraceTab } from './TraceTab.tsx';
import { nodeName } from './TreeMarks.tsx';
import type { NodeRecord, NodeReport } from './types.ts';

const NODE_TABS = [
  { id: 'report', label: 'Report' },
  { id: 'trace', label: 'Trace' },
  { id: 'code', label: 'Code' },
  { id: 'memory', label: 'Memory' },
  { id: 'metrics', label: 'Metrics' },
];

type Props = { run: string; node: PlacedNode; best: boolean; tab: string; onTab: (id: string) => void; onSelect: (id: string) => void };

const nodePath = (run: string, node: string) => `/api/nodes/${encodeURIComponent(run)}/${encodeURIComponent(node)}`;

const NO_REPORT: Loaded<NodeReport> = {
  data: undefined,
  error: 'This node has no readable node_report.json in its work directory: it has not run yet, or its run left none.',
  loading: false,
  reload: () => {},
};

/**
 * One node: what it is, and its report, trace, code, memory and metrics in tabs. The report is
 * asked for only when the summary found one (`hasReport`): asking for a missing one is a 404.
 */
export function NodePanel(props: Props & { hasReport: boolean }) {
  return props.hasReport ? <ReportedPanel {...props} /> : <PanelBody {...props} report={NO_REPORT} />;
}

function ReportedPanel(props: Props) {
  const report = useApi<NodeReport>(`${nodePath(props.run, props.node.id)}/report`);
  return <PanelBody {...props} report={report} />;
}

function PanelBody({ run, node, best, tab, onTab, onSelect, report }: Props & { report: Loaded<NodeReport> }) {
  const path = nodePath(run, node.id);
  // the whole record: the outline the tree is drawn from has no trace or evaluation texts
  const record = useApi<NodeRecord>(path);
  const r = node.record;
  let body;
  if (tab === 'trace') body = record.error ? <ErrorMessage message={record.error} retry={record.reload} /> : !record.data ? <Loading what="the trace" /> : <TraceTab trace={record.data.trace_log} />;
  else if (tab === 'code') body = <CodeTab run={run} node={node.id} parent={node.parent?.id ?? null} changes={report.data?.files_changed} />;
  else if (tab === 'memory') body = <MemoryOfNode run={run} node={node.id} />;
  else if (tab === 'metrics') body = <MetricsTab record={record.data ?? r} />;
  else body = <ReportTab report={report} record={record.data} />;
  return (
    <section className="tree-panel card" aria-labelledby="tree-node-title">
      <header className="tree-panel-head">
        <h2 id="tree-node-title">{nodeName(node)}</h2>
        <span className={`status status-${statusKind(r.status) === 'success' ? 'done' : statusKind(r.status)}`}>{r.status ?? 'no status'}</span>
        {best && <span className="badge">best</span>}
        <span className="meta">
          {node.id} · score {score(node.score, 3)}
          {node.parent && (
            <>
              {' · parent '}
              <button type="button" className="tree-link" onClick={() => onSelect(node.parent!.id)}>
                {node.parent.id}
              </button>
            </>
          )}
        </span>
      </header>
      <Tabs tabs={NODE_TABS} current={tab} onSelect={onTab} label={`About ${node.id}`}>
        {body}
      </Tabs>
    </section>
  );
}
