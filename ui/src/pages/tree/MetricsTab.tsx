import { Empty } from '../../components/states.tsx';
import type { NodeRecord } from './types.ts';

/** A metric's value as read: numbers to six significant digits, anything else as JSON. */
function valueText(v: unknown): string {
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6)));
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** The metrics of the node's record, nested ones (the evaluator's axis scores) one row each. */
function rowsOf(metrics: Record<string, unknown>): [string, string][] {
  return Object.entries(metrics).flatMap(([k, v]): [string, string][] =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.entries(v).map(([sub, w]): [string, string] => [`${k}.${sub}`, valueText(w)]) : [[k, valueText(v)]],
  );
}

/** The node's metrics as the evaluator recorded them in the tree file. */
export function MetricsTab({ record }: { record: NodeRecord }) {
  const rows = rowsOf(record.metrics ?? {});
  if (rows.length === 0)
    return (
      <Empty title="No metrics">
        <p>The evaluator recorded no metric for this node{record.status === 'failed' ? ': it failed before it was evaluated' : ''}.</p>
      </Empty>
    );
  return (
    <>
      {record.has_real_data === false && <p className="notice error">The evaluator found no real measured data behind these metrics.</p>}
      <table className="tree-metrics">
        <thead>
          <tr>
            <th scope="col">Metric</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([k, v]) => (
            <tr key={k}>
              <th scope="row">{k}</th>
              <td>{v}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
