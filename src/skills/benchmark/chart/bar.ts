import { extent } from '../stats/summary.ts';
import type { BarChart } from './data.ts';
import { HEIGHT, type Labels, layoutFrame, WIDTH } from './frame.ts';
import { seriesColour } from '../../../chart/palette.ts';
import { el, svgDocument } from '../../../chart/svg.ts';
import { niceTicks, withMargin } from './ticks.ts';

/** Grouped bars: one group per label, one bar per series, measured from zero. */
export function barSvg(chart: BarChart, labels: Labels): string {
  // Bars grow from zero: zero is always on the axis, and the margin only goes beyond the bars' ends.
  const [lo, hi] = extent(chart.series.flatMap((s) => s.values));
  const [padLo, padHi] = withMargin(Math.min(0, lo), Math.max(0, hi));
  const ticks = niceTicks(lo < 0 ? padLo : 0, hi > 0 ? padHi : 0);
  const frame = layoutFrame({
    title: labels.title,
    x: { kind: 'band', labels: chart.labels, label: labels.xlabel },
    y: { kind: 'linear', ticks, label: labels.ylabel },
    legend: chart.named ? chart.series.map((s, i) => ({ name: s.name, colour: seriesColour(i), mark: 'box' as const })) : [],
    grid: true,
  });
  const group = frame.x.band * 0.8;
  const barWidth = group / chart.series.length;
  const zero = frame.y.pos(0);
  const bars = chart.series.flatMap((s, si) =>
    s.values.map((v, i) => {
      const x = frame.x.pos(i) - group / 2 + si * barWidth;
      const y = frame.y.pos(v);
      return el('rect', { x, y: Math.min(y, zero), width: barWidth, height: Math.abs(zero - y), fill: chart.colours?.[i] ?? seriesColour(si) });
    }),
  );
  const baseline = el('line', { x1: frame.area.left, x2: frame.area.left + frame.area.width, y1: zero, y2: zero, stroke: '#333333' });
  return svgDocument(WIDTH, HEIGHT, labels.title, frame.back + bars.join('') + baseline + frame.front);
}
