import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export type Line = { label: string; values: (number | null)[] };

const COLOURS = ['#2458b8', '#1d6b3a', '#a8231b', '#8a5a00', '#6b3fa0', '#00727a'];
const HEIGHT = 160;

const clock = (seconds: number) => new Date(seconds * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/**
 * A time chart of percentages (0–100) drawn by uPlot: `times` in seconds since the epoch, one
 * value per time in each line. The canvas is described for screen readers by `summary`.
 */
export function Chart({ title, times, lines, summary }: { title: string; times: number[]; lines: Line[]; summary: string }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const labels = lines.map((l) => l.label).join('\n');
  // a new plot when the set of lines changes; new values only update the data
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height: HEIGHT,
      legend: { show: false },
      scales: { y: { range: [0, 100] } },
      // clock times only: uPlot's default adds a date line, which overlaps at this width
      axes: [{ space: 80, values: (_u, ticks) => ticks.map(clock) }, { values: (_u, ticks) => ticks.map((t) => `${t}%`), size: 48 }],
      series: [{}, ...labels.split('\n').map((label, i) => ({ label, stroke: COLOURS[i % COLOURS.length], width: 2 }))],
    };
    const p = new uPlot(opts, [[], ...labels.split('\n').map(() => [])], el);
    plot.current = p;
    const resize = new ResizeObserver(() => p.setSize({ width: Math.max(200, el.clientWidth), height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      p.destroy();
      plot.current = null;
    };
  }, [labels]);
  useEffect(() => {
    plot.current?.setData([times, ...lines.map((l) => l.values)] as uPlot.AlignedData);
  }, [times, lines]);
  return (
    <figure className="monitor-chart">
      <figcaption>{title}</figcaption>
      <div ref={box} className="monitor-chart-plot" role="img" aria-label={`${title}: ${summary}`} />
      <p className="meta">{summary}</p>
    </figure>
  );
}
