import type { ReactNode } from 'react';
import { Markdown } from '../../components/Markdown.tsx';
import { Empty, Loading } from '../../components/states.tsx';
import { when } from '../../format.ts';
import type { Loaded } from '../../use-api.ts';
import type { NodeRecord, NodeReport } from './types.ts';

/** The node's report (node_report.json of its work directory) and what the tree file says of it. */
export function ReportTab({ report, record }: { report: Loaded<NodeReport>; record: NodeRecord | undefined }) {
  return (
    <div className="tree-report">
      {report.error ? (
        <Empty title="No report">
          <p>{report.error}</p>
        </Empty>
      ) : !report.data ? (
        <Loading what="the node's report" />
      ) : (
        <ReportBody report={report.data} />
      )}
      {record?.eval_summary && <Section title="Evaluation summary">{record.eval_summary}</Section>}
      {record?.error_log && (
        <Section title="Error">
          <pre className="error-text">{record.error_log}</pre>
        </Section>
      )}
    </div>
  );
}

function ReportBody({ report: r }: { report: NodeReport }) {
  const fc = r.files_changed;
  const facts: [string, string | null | undefined][] = [
    ['Status', r.status],
    ['Started', r.started_at && when(r.started_at)],
    ['Completed', r.completed_at && when(r.completed_at)],
    ['Files', fc && `${fc.added.length} added, ${fc.modified.length} modified, ${fc.deleted.length} deleted`],
    ['Executor', r.executor],
    ['Host', r.hostname],
    ['Build', r.build_command],
    ['Run', r.run_command],
  ];
  const concerns = r.self_assessment?.concerns ?? [];
  return (
    <>
      {r.error && <p className="notice error">{r.error}</p>}
      <dl className="facts">
        {facts
          .filter((f): f is [string, string] => typeof f[1] === 'string' && f[1] !== '')
          .map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
      </dl>
      {r.what_was_done && (
        <Section title="What was done">
          <Markdown text={r.what_was_done} />
        </Section>
      )}
      {r.delta_vs_parent && <Section title="Against the parent">{r.delta_vs_parent}</Section>}
      {r.evaluator_reason && <Section title="Evaluator's reason">{r.evaluator_reason}</Section>}
      {concerns.length > 0 && <Section title="Concerns"><List items={concerns} /></Section>}
      {(r.next_steps_hints ?? []).length > 0 && <Section title="Next steps"><List items={r.next_steps_hints ?? []} /></Section>}
    </>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="tree-report-part">
      <h3>{title}</h3>
      {typeof children === 'string' ? <p>{children}</p> : children}
    </section>
  );
}

const List = ({ items }: { items: string[] }) => (
  <ul>
    {items.map((t) => (
      <li key={t}>{t}</li>
    ))}
  </ul>
);
