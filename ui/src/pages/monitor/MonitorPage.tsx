import { useCallback, useEffect, useRef, useState } from 'react';
import { getJson, withToken } from '../../api.ts';
import { ErrorMessage, Loading } from '../../components/states.tsx';
import type { Gpus, Metrics, State } from '../../types.ts';
import { useEvery } from '../../use-api.ts';

/** lines kept in the log view; older ones scroll away */
const MAX_LOG_LINES = 2000;

/**
 * The active run as far as this page shows it so far: its state, the machine's load and the live
 * log. The phase stepper, charts and run buttons are not built yet.
 */
export function MonitorPage() {
  const [state, setState] = useState<State | null>(null);
  const [error, setError] = useState<string | null>(null);
  const refresh = useCallback(() => {
    getJson<State>('/state')
      .then((s) => {
        setState(s);
        setError(null);
      })
      .catch((err: unknown) => setError((err as Error).message));
  }, []);
  useEvery(3000, refresh);
  const n = state?.nodes;
  const best = state?.best;
  return (
    <section className="page">
      <h1>Monitor</h1>
      <p className="state empty">The phase stepper, resource charts and the stop, resume and run-stage buttons are not built yet.</p>
      {error && <ErrorMessage message={error} retry={refresh} />}
      {!state && !error && <Loading what="the run's state" />}
      {state && (
        <div className="cards">
          <section className="card" aria-labelledby="run-title">
            <h2 id="run-title">Run</h2>
            <Facts
              rows={[
                ['status', state.status_label],
                ['checkpoint', state.checkpoint_id ?? 'none selected'],
                ['phase', state.phase ?? '–'],
                ['nodes', n ? `${n.total} total, ${n.completed} completed, ${n.running} running, ${n.failed} failed, ${n.pending} pending` : '–'],
                ['model', state.model ? `${state.model.provider} / ${state.model.model}` : '–'],
                ['cost', state.cost ? `$${state.cost.usd.toFixed(4)}, ${state.cost.tokens} tokens, ${state.cost.calls} calls` : '–'],
                ['best node', best ? `${best.id} (score ${best.score}${best.metric ? `, ${best.metric} = ${best.value ?? '–'}` : ''})` : '–'],
              ]}
            />
          </section>
          <Machine />
        </div>
      )}
      {state && <Log checkpoint={state.checkpoint_id ?? null} />}
    </section>
  );
}

function Facts({ rows }: { rows: [string, string][] }) {
  return (
    <dl className="facts">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

function Machine() {
  const [rows, setRows] = useState<[string, string][] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const refresh = useCallback(() => {
    Promise.all([getJson<Metrics>('/api/resource-metrics'), getJson<Gpus>('/api/gpu-monitor')])
      .then(([m, g]) => {
        const gb = (b: number) => `${(b / 1024 ** 3).toFixed(1)} GB`;
        setRows([
          ['cpu', `${m.cpu.percent}% of ${m.cpu.cores} cores`],
          ['memory', `${m.memory.percent}% of ${gb(m.memory.total_bytes)}`],
          ['disk', `${m.disk.percent}% used, ${gb(m.disk.free_bytes)} free`],
          ['gpu', g.available ? g.gpus.map((x) => `#${x.index} ${x.name}: ${x.utilization_pct ?? '?'}%`).join('; ') || 'none' : (g.reason ?? 'unavailable')],
        ]);
        setError(null);
      })
      .catch((err: unknown) => setError((err as Error).message));
  }, []);
  useEvery(5000, refresh);
  return (
    <section className="card" aria-labelledby="machine-title">
      <h2 id="machine-title">Machine</h2>
      {error ? <ErrorMessage message={error} /> : rows ? <Facts rows={rows} /> : <Loading what="machine load" />}
    </section>
  );
}

/** Follows /api/logs of the active checkpoint; the stream ends by itself once the run has ended. */
function Log({ checkpoint }: { checkpoint: string | null }) {
  const pre = useRef<HTMLPreElement>(null);
  const [lines, setLines] = useState<string[]>([]);
  const [label, setLabel] = useState('');
  useEffect(() => {
    setLines([]);
    if (checkpoint === null) {
      setLabel('no active checkpoint');
      return;
    }
    setLabel('following');
    const add = (msg: string) => setLines((l) => [...l.slice(-(MAX_LOG_LINES - 1)), msg]);
    // EventSource cannot set headers: the token goes in the query, which the server keeps out of its log
    const source = new EventSource(withToken('/api/logs?stream=1'));
    source.onmessage = (e) => add((JSON.parse(e.data as string) as { msg: string }).msg);
    source.addEventListener('done', (e) => {
      add((JSON.parse((e as MessageEvent).data as string) as { msg: string }).msg);
      setLabel('ended');
      source.close();
    });
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) setLabel('not available');
    };
    return () => source.close();
  }, [checkpoint]);
  useEffect(() => {
    const el = pre.current;
    if (el && el.scrollTop + el.clientHeight >= el.scrollHeight - 40) el.scrollTop = el.scrollHeight;
  }, [lines]);
  return (
    <section className="card log" aria-labelledby="log-title">
      <h2 id="log-title">
        Log <span className="badge">{label}</span>
      </h2>
      <pre ref={pre} id="log-lines" role="log" tabIndex={0} aria-label="run log">
        {lines.join('\n')}
      </pre>
    </section>
  );
}
