import { useMemo } from 'react';
import { Empty } from '../../components/states.tsx';
import { parseTrace } from './trace.ts';

/** Arguments as written: JSON indented when they are JSON (a trace may cut them short). */
function readableArgs(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}

/** Every tool call of the node's agent, with its answer, and the loop's notes between them. */
export function TraceTab({ trace }: { trace: string[] | undefined }) {
  const steps = useMemo(() => parseTrace(trace ?? []), [trace]);
  if (steps.length === 0)
    return (
      <Empty title="No trace">
        <p>This node recorded no tool call: its trace_log in the tree file is empty.</p>
      </Empty>
    );
  const calls = steps.filter((s) => s.kind === 'call');
  const failed = calls.filter((s) => s.failed).length;
  return (
    <>
      <p className="meta">
        {calls.length} tool call{calls.length === 1 ? '' : 's'}
        {failed > 0 ? `, ${failed} answered with an error` : ''}
      </p>
      <ol className="tree-trace">
        {steps.map((s, i) =>
          s.kind === 'call' ? (
            <li key={i} className="call">
              <span className="tree-tool">{s.tool}</span>
              <pre className="args">{readableArgs(s.args)}</pre>
              {s.result === null ? <p className="meta">No answer recorded.</p> : <pre className={s.failed ? 'result failed' : 'result'}>{s.result}</pre>}
            </li>
          ) : (
            <li key={i} className="note">
              {s.text}
            </li>
          ),
        )}
      </ol>
    </>
  );
}
