import { clip, el, text, textWidth } from '../../../chart/svg.ts';
import { type Ticks, tickLabels } from './ticks.ts';

/** Everything a chart has around its marks: title, axes, ticks, grid, axis labels, legend. */

export const WIDTH = 800;
export const HEIGHT = 500;
const TICK_FONT = 12;
const LABEL_FONT = 14;
const TITLE_FONT = 17;
const MAX_CATEGORY_CHARS = 28;
const MAX_LEGEND_CHARS = 24;
const LEGEND_ROW = 20;
const ROTATION_DEG = 40;

type Axis = { kind: 'linear'; ticks: Ticks; label: string } | { kind: 'band'; labels: string[]; label: string };
type LegendEntry = { name: string; colour: string; mark: 'box' | 'line' | 'dot' };

type FrameSpec = {
  title: string;
  x: Axis;
  y: Axis;
  legend: LegendEntry[];
  /** room kept right of the plot for something the chart draws itself (a colour bar) */
  rightExtra?: number;
  grid: boolean;
};

export type Area = { left: number; top: number; width: number; height: number };

/** The texts a caller gives a chart. */
export type Labels = { title: string; xlabel: string; ylabel: string };

/** Maps a value (linear axis) or a category index (band axis) to a pixel coordinate. */
type Scale = { pos: (v: number) => number; band: number };

type Frame = { area: Area; x: Scale; y: Scale; back: string; front: string };

export function layoutFrame(spec: FrameSpec): Frame {
  const yLabels = axisLabels(spec.y);
  const xLabels = axisLabels(spec.x);
  const top = spec.title ? 48 : 16;
  const legendWidth = spec.legend.length ? 30 + Math.max(...spec.legend.map((e) => textWidth(clip(e.name, MAX_LEGEND_CHARS), TICK_FONT))) : 0;
  const right = 24 + legendWidth + (spec.rightExtra ?? 0);
  let left = 14 + (spec.y.label ? 24 : 0) + Math.max(0, ...yLabels.map((l) => textWidth(l, TICK_FONT))) + 10;
  const bandOf = () => (spec.x.kind === 'band' ? (WIDTH - left - right) / spec.x.labels.length : 0);

  const widest = Math.max(0, ...xLabels.map((l) => textWidth(l, TICK_FONT)));
  const rotate = spec.x.kind === 'band' && widest > bandOf() - 6;
  const angle = (ROTATION_DEG * Math.PI) / 180;
  // A slanted label reaches left of its tick; the first one must not leave the image.
  if (rotate) left = Math.max(left, widest * Math.cos(angle) + 8 - bandOf() / 2);
  const width = WIDTH - left - right;
  const xLabelHeight = rotate ? widest * Math.sin(angle) + TICK_FONT + 6 : TICK_FONT + 8;
  const bottom = 10 + xLabelHeight + (spec.x.label ? 26 : 0);
  const area = { left, top, width, height: HEIGHT - top - bottom };

  const x = scaleOf(spec.x, area.left, area.width, false);
  const y = scaleOf(spec.y, area.top, area.height, true);
  const back = [el('rect', { width: WIDTH, height: HEIGHT, fill: '#ffffff' }), spec.grid ? grid(spec, area, x, y) : ''].join('');
  const front = [
    el('rect', { x: area.left, y: area.top, width: area.width, height: area.height, fill: 'none', stroke: '#333333', 'stroke-width': 1 }),
    xTicks(spec.x, xLabels, area, x, rotate),
    yTicks(spec.y, yLabels, area, y),
    titles(spec, area),
    legend(spec.legend, area.left + area.width + (spec.rightExtra ?? 0) + 16, area.top, area.height),
  ].join('');
  return { area, x, y, back, front };
}

function axisLabels(axis: Axis): string[] {
  return axis.kind === 'linear' ? tickLabels(axis.ticks) : axis.labels.map((l) => clip(l, MAX_CATEGORY_CHARS));
}

function scaleOf(axis: Axis, start: number, length: number, flip: boolean): Scale {
  if (axis.kind === 'band') {
    const band = length / axis.labels.length;
    return { pos: (i) => start + (i + 0.5) * band, band };
  }
  const { min, max } = axis.ticks;
  return { pos: (v) => (flip ? start + length - ((v - min) / (max - min)) * length : start + ((v - min) / (max - min)) * length), band: 0 };
}

function grid(spec: FrameSpec, area: Area, x: Scale, y: Scale): string {
  const lines: string[] = [];
  const style = { stroke: '#e5e5e5', 'stroke-width': 1 };
  if (spec.y.kind === 'linear') {
    for (const v of spec.y.ticks.values) lines.push(el('line', { x1: area.left, x2: area.left + area.width, y1: y.pos(v), y2: y.pos(v), ...style }));
  }
  if (spec.x.kind === 'linear') {
    for (const v of spec.x.ticks.values) lines.push(el('line', { x1: x.pos(v), x2: x.pos(v), y1: area.top, y2: area.top + area.height, ...style }));
  }
  return lines.join('');
}

/** Every k-th category label, so that labels never overlap. */
function labelEvery(band: number, needed: number): number {
  return Math.max(1, Math.ceil(needed / Math.max(band, 1e-9)));
}

function xTicks(axis: Axis, labels: string[], area: Area, x: Scale, rotate: boolean): string {
  const base = area.top + area.height;
  const positions = axis.kind === 'linear' ? axis.ticks.values.map(x.pos) : labels.map((_, i) => x.pos(i));
  const every = axis.kind === 'band' ? labelEvery(x.band, rotate ? TICK_FONT + 2 : 0) : 1;
  const out: string[] = [];
  positions.forEach((p, i) => {
    if (i % every !== 0) return;
    out.push(el('line', { x1: p, x2: p, y1: base, y2: base + 5, stroke: '#333333' }));
    const label = labels[i] as string;
    if (rotate) {
      out.push(text(p, base + 16, label, { 'font-size': TICK_FONT, 'text-anchor': 'end', transform: `rotate(-${ROTATION_DEG} ${p.toFixed(2)} ${base + 16})` }));
    } else {
      out.push(text(p, base + 19, label, { 'font-size': TICK_FONT, 'text-anchor': 'middle' }));
    }
  });
  return out.join('');
}

function yTicks(axis: Axis, labels: string[], area: Area, y: Scale): string {
  const positions = axis.kind === 'linear' ? axis.ticks.values.map(y.pos) : labels.map((_, i) => y.pos(i));
  const every = axis.kind === 'band' ? labelEvery(y.band, TICK_FONT + 2) : 1;
  const out: string[] = [];
  positions.forEach((p, i) => {
    if (i % every !== 0) return;
    out.push(el('line', { x1: area.left - 5, x2: area.left, y1: p, y2: p, stroke: '#333333' }));
    out.push(text(area.left - 8, p + 4, labels[i] as string, { 'font-size': TICK_FONT, 'text-anchor': 'end' }));
  });
  return out.join('');
}

function titles(spec: FrameSpec, area: Area): string {
  const out: string[] = [];
  if (spec.title) out.push(text(WIDTH / 2, 30, fit(spec.title, TITLE_FONT, WIDTH - 40), { 'font-size': TITLE_FONT, 'text-anchor': 'middle' }));
  if (spec.x.label) {
    out.push(text(area.left + area.width / 2, HEIGHT - 12, fit(spec.x.label, LABEL_FONT, area.width), { 'font-size': LABEL_FONT, 'text-anchor': 'middle' }));
  }
  if (spec.y.label) {
    const cy = area.top + area.height / 2;
    const label = fit(spec.y.label, LABEL_FONT, area.height);
    out.push(text(20, cy, label, { 'font-size': LABEL_FONT, 'text-anchor': 'middle', transform: `rotate(-90 20 ${cy.toFixed(2)})` }));
  }
  return out.join('');
}

/** The text shortened with an ellipsis until its estimated width fits. */
function fit(s: string, size: number, width: number): string {
  // No line of the chart holds more than about 200 characters; start there for very long texts.
  let max = Math.min([...s].length, 200);
  while (max > 4 && textWidth(clip(s, max), size) > width) max--;
  return clip(s, max);
}

function legend(entries: LegendEntry[], x: number, y: number, height: number): string {
  if (!entries.length) return '';
  const fits = Math.max(1, Math.floor(height / LEGEND_ROW));
  const shown = entries.length <= fits ? entries : entries.slice(0, fits - 1);
  const out = shown.map((e, i) => {
    const cy = y + i * LEGEND_ROW + 10;
    return swatch(e, x, cy) + text(x + 20, cy + 4, clip(e.name, MAX_LEGEND_CHARS), { 'font-size': TICK_FONT });
  });
  if (shown.length < entries.length) {
    out.push(text(x, y + shown.length * LEGEND_ROW + 14, `+${entries.length - shown.length} more`, { 'font-size': TICK_FONT, fill: '#555555' }));
  }
  return out.join('');
}

function swatch(e: LegendEntry, x: number, cy: number): string {
  if (e.mark === 'box') return el('rect', { x, y: cy - 6, width: 12, height: 12, fill: e.colour });
  const dot = el('circle', { cx: x + 7, cy, r: 3.5, fill: e.colour });
  return e.mark === 'dot' ? dot : el('line', { x1: x, x2: x + 14, y1: cy, y2: cy, stroke: e.colour, 'stroke-width': 2 }) + dot;
}
