import { extent } from '../stats/summary.ts';
import type { XYChart } from './data.ts';
import { HEIGHT, type Labels, layoutFrame, WIDTH } from './frame.ts';
import { seriesColour } from '../../../chart/palette.ts';
import { el, px, svgDocument } from '../../../chart/svg.ts';
import { niceTicks, withMargin } from './ticks.ts';

/** Above this many points a line is drawn without a marker on every point. */
const MARKERS_UP_TO = 60;

/** Lines through the points in the order given, or a scatter of them; one colour per series. */
export function xySvg(chart: XYChart, kind: 'line' | 'scatter', labels: Labels): string {
  const xs = chart.series.flatMap((s) => s.x);
  const ys = chart.series.flatMap((s) => s.y);
  const frame = layoutFrame({
    title: labels.title,
    x: { kind: 'linear', ticks: niceTicks(...withMargin(...extent(xs))), label: labels.xlabel },
    y: { kind: 'linear', ticks: niceTicks(...withMargin(...extent(ys))), label: labels.ylabel },
    legend: chart.named
      ? chart.series.map((s, i) => ({ name: s.name, colour: seriesColour(i), mark: kind === 'line' ? ('line' as const) : ('dot' as const) }))
      : [],
    grid: true,
  });
  const marks = chart.series.map((s, si) => {
    const colour = seriesColour(si);
    const points = s.x.map((x, i) => [frame.x.pos(x), frame.y.pos(s.y[i] as number)] as const);
    const dots = (r: number, opacity: number) =>
      points.map(([cx, cy]) => el('circle', { cx, cy, r, fill: colour, 'fill-opacity': opacity })).join('');
    if (kind === 'scatter') return dots(3.5, 0.75);
    const line = el('polyline', {
      points: points.map(([x, y]) => `${px(x)},${px(y)}`).join(' '),
      fill: 'none',
      stroke: colour,
      'stroke-width': 2,
      'stroke-linejoin': 'round',
    });
    return line + (points.length <= MARKERS_UP_TO ? dots(3, 1) : '');
  });
  return svgDocument(WIDTH, HEIGHT, labels.title, frame.back + marks.join('') + frame.front);
}
