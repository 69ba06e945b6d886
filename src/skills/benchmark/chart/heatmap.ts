import { extent } from '../stats/summary.ts';
import type { HeatmapChart } from './data.ts';
import { type Area, HEIGHT, type Labels, layoutFrame, WIDTH } from './frame.ts';
import { inkOn, viridis } from '../../../chart/palette.ts';
import { el, svgDocument, text, textWidth } from '../../../chart/svg.ts';
import { niceTicks, tickLabels } from './ticks.ts';

const BAR_WIDTH = 16;
const BAR_GAP = 16;
/** Cells at least this large show their value. */
const ANNOTATE_MIN = { width: 40, height: 18 };

/** A grid of cells coloured on a viridis scale, row 0 at the top, with a colour bar on the right. */
export function heatmapSvg(chart: HeatmapChart, labels: Labels): string {
  const [min, max] = extent(chart.matrix.flat());
  const ticks = niceTicks(min, max);
  const tickText = tickLabels(ticks);
  // A constant matrix has one colour: its value is the only tick.
  const barTicks = max === min ? [[min, String(min)] as const] : ticks.values.map((v, i) => [v, tickText[i] as string] as const);
  const labelWidth = Math.max(...barTicks.map(([, l]) => textWidth(l, 12)));
  const frame = layoutFrame({
    title: labels.title,
    x: { kind: 'band', labels: chart.xLabels, label: labels.xlabel },
    y: { kind: 'band', labels: chart.yLabels, label: labels.ylabel },
    legend: [],
    rightExtra: BAR_GAP + BAR_WIDTH + 10 + labelWidth,
    grid: false,
  });
  const { area } = frame;
  const [cw, ch] = [frame.x.band, frame.y.band];
  const t = (v: number) => (max === min ? 0.5 : (v - min) / (max - min));
  const annotate = cw >= ANNOTATE_MIN.width && ch >= ANNOTATE_MIN.height;
  const cells = chart.matrix.flatMap((row, i) =>
    row.map((v, j) => {
      const fill = viridis(t(v));
      // A hair of overlap hides the seams anti-aliasing leaves between neighbouring cells.
      const cell = el('rect', { x: area.left + j * cw, y: area.top + i * ch, width: cw + 0.3, height: ch + 0.3, fill });
      if (!annotate) return cell;
      return cell + text(frame.x.pos(j), frame.y.pos(i) + 4, cellLabel(v), { 'font-size': 11, 'text-anchor': 'middle', fill: inkOn(fill) });
    }),
  );
  return svgDocument(WIDTH, HEIGHT, labels.title, frame.back + cells.join('') + frame.front + colourBar(area, min, max, barTicks));
}

function cellLabel(v: number): string {
  return Math.abs(v) >= 1e4 || (v !== 0 && Math.abs(v) < 1e-3) ? v.toExponential(1) : String(Number(v.toPrecision(3)));
}

function colourBar(area: Area, min: number, max: number, ticks: readonly (readonly [number, string])[]): string {
  const x = area.left + area.width + BAR_GAP;
  const stops = Array.from({ length: 9 }, (_, i) => el('stop', { offset: `${i * 12.5}%`, 'stop-color': viridis(1 - i / 8) })).join('');
  const gradient = el('defs', {}, el('linearGradient', { id: 'colour-scale', x1: '0', y1: '0', x2: '0', y2: '1' }, stops));
  const bar = el('rect', { x, y: area.top, width: BAR_WIDTH, height: area.height, fill: 'url(#colour-scale)', stroke: '#333333' });
  const marks = ticks.map(([v, label]) => {
    const y = max === min ? area.top + area.height / 2 : area.top + area.height - ((v - min) / (max - min)) * area.height;
    return el('line', { x1: x + BAR_WIDTH, x2: x + BAR_WIDTH + 4, y1: y, y2: y, stroke: '#333333' }) + text(x + BAR_WIDTH + 7, y + 4, label, { 'font-size': 12 });
  });
  return gradient + bar + marks.join('');
}
