import { useMemo } from 'react';
import { ErrorMessage, Loading } from '../../components/states.tsx';
import { Chart, type Line } from './Chart.tsx';
import { SAMPLE_MS, useSamples } from './samples.ts';

const gb = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GB`;

/** CPU, memory and GPU use of the machine over the time the page has been open. */
export function ResourceCharts() {
  const { samples, latest, error } = useSamples();
  const times = useMemo(() => samples.map((s) => s.at), [samples]);
  const cpu = useMemo<Line[]>(() => [{ label: 'CPU', values: samples.map((s) => s.cpu) }], [samples]);
  const memory = useMemo<Line[]>(() => [{ label: 'memory', values: samples.map((s) => s.memory) }], [samples]);
  const gpuCount = latest?.gpus.gpus.length ?? 0;
  const gpu = useMemo<Line[]>(() => Array.from({ length: gpuCount }, (_, i) => ({ label: `GPU ${i}`, values: samples.map((s) => s.gpus[i] ?? null) })), [samples, gpuCount]);

  let body;
  if (!latest && error) body = <ErrorMessage message={error} />;
  else if (!latest) body = <Loading what="machine load" />;
  else {
    const { metrics, gpus } = latest;
    body = (
      <>
        {error && <p className="notice error">Sampling stopped: {error}</p>}
        <div className="monitor-charts">
          <Chart title="CPU" times={times} lines={cpu} summary={`${metrics.cpu.percent}% of ${metrics.cpu.cores} cores`} />
          <Chart title="Memory" times={times} lines={memory} summary={`${metrics.memory.percent}% of ${gb(metrics.memory.total_bytes)} (${gb(metrics.memory.used_bytes)} used)`} />
          {gpus.available ? (
            <Chart title="GPU" times={times} lines={gpu} summary={gpus.gpus.map((g) => `GPU ${g.index} ${g.name}: ${g.utilization_pct ?? '?'}%`).join('; ')} />
          ) : (
            <figure className="monitor-chart">
              <figcaption>GPU</figcaption>
              <p className="monitor-no-gpu">No GPU: {gpus.reason}</p>
            </figure>
          )}
        </div>
        <p className="meta">
          Sampled every {SAMPLE_MS / 1000} s while this page is open. Disk: {metrics.disk.percent}% used, {gb(metrics.disk.free_bytes)} free.
        </p>
      </>
    );
  }
  return (
    <section className="card" aria-labelledby="machine-title">
      <h2 id="machine-title">Machine</h2>
      {body}
    </section>
  );
}
