import { inkOn, viridis } from '../../chart/palette.ts';
import { clip, el, svgDocument, text } from '../../chart/svg.ts';
import type { Axis, ReportData } from './harvest.ts';

// The report's three figures as SVG, drawn from the grade's numbers alone: the same data gives the
// same bytes. Labels are leaf and axis ids (the embedded font has Latin glyphs only), so a figure
// reads the same in every language of the report.

export type Figure = { name: 'rubric_tree' | 'score_distribution' | 'leaf_grades'; svg: string };

const UNGRADED = '#d0d0d0';
const ROW = 22;
const fill = (score: number | null) => (score === null ? UNGRADED : viridis(score));
// the four decimals the grade keeps, no trailing zeros
const fmt = (score: number | null) => (score === null ? '–' : String(Number(score.toFixed(4))));

export function reportFigures(d: ReportData): Figure[] {
  return [
    { name: 'rubric_tree', svg: rubricTreeSvg(d.nodes[0]?.score ?? null, d.nodes[0]?.node.id ?? '', d.axes) },
    { name: 'score_distribution', svg: distributionSvg(d.grade.leaf_grades.map((g) => g.score)) },
    { name: 'leaf_grades', svg: leafGradesSvg(d.axes) },
  ];
}

function box(x: number, y: number, w: number, label: string, score: number | null): string {
  const bg = fill(score);
  return el('rect', { x, y, width: w, height: ROW - 4, rx: 3, fill: bg, stroke: '#555555', 'stroke-width': 0.5 }) + text(x + 4, y + 13, label, { 'font-size': 11, fill: inkOn(bg) });
}

/** Root, axes and leaves in three columns joined by lines, each box coloured by its score. */
function rubricTreeSvg(rootScore: number | null, rootId: string, axes: Axis[]): string {
  const top = 40;
  const rows = axes.reduce((n, a) => n + Math.max(1, a.leaves.length), 0);
  const height = Math.max(top + rows * ROW + 20, 140);
  const [rootX, axisX, leafX] = [10, 210, 470];
  let body = text(10, 20, 'Rubric tree (colour: score, 0 dark to 1 light; grey: not graded)', { 'font-size': 13 });
  let row = 0;
  const axisYs: number[] = [];
  for (const axis of axes) {
    const ys = axis.leaves.map(() => top + row++ * ROW);
    const y = ys.length ? ((ys[0] as number) + (ys[ys.length - 1] as number)) / 2 : top + row++ * ROW;
    axisYs.push(y);
    axis.leaves.forEach((leaf, i) => {
      const ly = ys[i] as number;
      body += el('line', { x1: axisX + 230, y1: y + 9, x2: leafX, y2: ly + 9, stroke: '#999999' });
      body += box(leafX, ly, 380, `${clip(leaf.node.id, 44)}  ${fmt(leaf.score)}`, leaf.score);
    });
    body += box(axisX, y, 230, `${clip(axis.node.id, 26)}  ${fmt(axis.score)}`, axis.score);
  }
  const rootY = axisYs.length ? ((axisYs[0] as number) + (axisYs[axisYs.length - 1] as number)) / 2 : top;
  for (const y of axisYs) body += el('line', { x1: rootX + 170, y1: rootY + 9, x2: axisX, y2: y + 9, stroke: '#999999' });
  body += box(rootX, rootY, 170, `${clip(rootId, 16)}  ${fmt(rootScore)}`, rootScore);
  return svgDocument(860, height, 'Rubric tree', body);
}

/** How many leaves scored in each fifth of [0, 1] (the last fifth includes 1). */
function distributionSvg(scores: number[]): string {
  const bins = [0, 0, 0, 0, 0];
  for (const s of scores) {
    const i = Math.min(4, Math.max(0, Math.floor(s * 5)));
    bins[i] = (bins[i] as number) + 1;
  }
  const [w, h, left, bottom, plotH] = [520, 300, 50, 250, 200];
  const max = Math.max(1, ...bins);
  const barW = (w - left - 20) / bins.length;
  let body = text(left, 22, `Leaf scores (${scores.length} leaves)`, { 'font-size': 13 });
  body += el('line', { x1: left, y1: bottom, x2: w - 20, y2: bottom, stroke: '#000000' }) + el('line', { x1: left, y1: bottom, x2: left, y2: bottom - plotH, stroke: '#000000' });
  const step = Math.max(1, Math.ceil(max / 5));
  for (let t = 0; t <= max; t += step) body += el('line', { x1: left - 4, y1: bottom - (t / max) * plotH, x2: left, y2: bottom - (t / max) * plotH, stroke: '#000000' }) + text(left - 8, bottom - (t / max) * plotH + 4, String(t), { 'font-size': 10, 'text-anchor': 'end' });
  bins.forEach((n, i) => {
    const x = left + i * barW;
    const bh = (n / max) * plotH;
    body += el('rect', { x: x + 4, y: bottom - bh, width: barW - 8, height: bh, fill: viridis((i + 0.5) / 5) });
    body += text(x + barW / 2, bottom - bh - 4, String(n), { 'font-size': 11, 'text-anchor': 'middle' });
    body += text(x + barW / 2, bottom + 16, `${(i / 5).toFixed(1)}–${((i + 1) / 5).toFixed(1)}`, { 'font-size': 10, 'text-anchor': 'middle' });
  });
  body += text(w / 2, h - 8, 'leaf score', { 'font-size': 11, 'text-anchor': 'middle' }) + text(14, bottom - plotH / 2, 'leaves', { 'font-size': 11, transform: `rotate(-90 14 ${bottom - plotH / 2})`, 'text-anchor': 'middle' });
  return svgDocument(w, h, 'Distribution of leaf scores', body);
}

/** One row per leaf under its axis: a bar as long as the score, then one cell per judge run. */
function leafGradesSvg(axes: Axis[]): string {
  const [barX, barW] = [310, 260];
  const runsX = barX + barW + 60;
  let y = 34;
  let body = text(10, 20, 'Leaf grades by axis (bar: score; cells: judge runs)', { 'font-size': 13 });
  for (const axis of axes) {
    body += text(10, y + 13, `${clip(axis.node.id, 40)}  (${fmt(axis.score)})`, { 'font-size': 12, 'font-weight': 'bold' });
    y += ROW;
    for (const leaf of axis.leaves) {
      body += text(22, y + 13, clip(leaf.node.id, 44), { 'font-size': 11 });
      body += el('rect', { x: barX, y: y + 2, width: barW, height: ROW - 6, fill: '#eeeeee' });
      if (leaf.score !== null) body += el('rect', { x: barX, y: y + 2, width: barW * leaf.score, height: ROW - 6, fill: fill(leaf.score) });
      body += text(barX + barW + 6, y + 14, fmt(leaf.score), { 'font-size': 11 });
      (leaf.grade?.runs ?? []).forEach((r, i) => {
        body += el('rect', { x: runsX + i * 18, y: y + 2, width: 16, height: ROW - 6, fill: fill(r), stroke: '#555555', 'stroke-width': 0.5 });
      });
      y += ROW;
    }
  }
  const maxRuns = Math.max(1, ...axes.flatMap((a) => a.leaves.map((l) => l.grade?.runs.length ?? 0)));
  return svgDocument(runsX + maxRuns * 18 + 20, y + 10, 'Leaf grades by axis', body);
}
