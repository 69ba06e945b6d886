import { rmSync } from 'node:fs';
import { type Static, Type as T } from '@sinclair/typebox';
import { writeFileAtomic } from '../../core/atomic.ts';
import { InputError } from '../../core/errors.ts';
import { statOrNull } from '../../core/paths.ts';
import { printable } from '../../core/text.ts';
import { defineTool, toolParams } from '../../mcp/tool.ts';
import { barSvg } from './chart/bar.ts';
import { barChart, heatmapChart, PlotData, xyChart } from './chart/data.ts';
import type { Labels } from './chart/frame.ts';
import { heatmapSvg } from './chart/heatmap.ts';
import { svgToPng } from './chart/png.ts';
import { xySvg } from './chart/xy.ts';
import { fileInWorkDir, WorkDirParam } from '../../coding/work-dir.ts';

const PlotType = T.Union([T.Literal('bar'), T.Literal('line'), T.Literal('scatter'), T.Literal('heatmap')]);
type PlotType = Static<typeof PlotType>;

/** Extensions of other image formats: a caller naming one expects a file plot does not write. */
const OTHER_IMAGE = /\.(pdf|eps|ps|jpe?g|gif|webp|tiff?|bmp)$/i;

export const plot = defineTool({
  name: 'plot',
  description:
    'Draw a chart and write it as SVG and PNG side by side (output_path with .svg, .png or no extension; both files are written). ' +
    'data by plot_type: bar {labels: string[], values: number[]} or {labels, series: {name: number[]}} (grouped bars, one value per label); ' +
    'line and scatter {x: number[], y: number[]} or {series: {name: {x, y}}} (lines join points in the order given); ' +
    'heatmap {matrix: number[][] (rows), x_labels?: one per column, y_labels?: one per row} (viridis scale with a colour bar). ' +
    'Named series get a legend. Returns {plot_type, svg: {path, bytes}, png: {path, bytes, width, height}}.',
  params: toolParams({
    data: PlotData,
    plot_type: PlotType,
    output_path: T.String({ description: 'file to write, relative to work_dir: name.svg, name.png or name (both are written)' }),
    title: T.Optional(T.String({ default: '' })),
    xlabel: T.Optional(T.String({ default: '' })),
    ylabel: T.Optional(T.String({ default: '' })),
    work_dir: WorkDirParam,
  }),
  timeoutS: 120,
  async run(args, ctx) {
    const base = outputBase(args.output_path);
    const svgPath = fileInWorkDir(`${base}.svg`, 'output_path', args.work_dir, ctx.env).path;
    const pngPath = fileInWorkDir(`${base}.png`, 'output_path', args.work_dir, ctx.env).path;
    for (const p of [svgPath, pngPath]) {
      if (statOrNull(p)?.isDirectory()) throw new InputError(`output_path '${p}' is a directory`, 'give a file name');
    }
    const labels: Labels = { title: args.title ?? '', xlabel: args.xlabel ?? '', ylabel: args.ylabel ?? '' };
    const svg = renderSvg(args.data, args.plot_type, labels);
    const png = await svgToPng(svg);

    writeFileAtomic(svgPath, svg);
    try {
      writeFileAtomic(pngPath, png.bytes);
    } catch (err) {
      rmSync(svgPath, { force: true });
      throw err;
    }
    return {
      plot_type: args.plot_type,
      svg: { path: svgPath, bytes: Buffer.byteLength(svg) },
      png: { path: pngPath, bytes: png.bytes.length, width: png.width, height: png.height },
    };
  },
});

export function renderSvg(data: PlotData, type: PlotType, labels: Labels): string {
  switch (type) {
    case 'bar':
      return barSvg(barChart(data), labels);
    case 'line':
    case 'scatter':
      return xySvg(xyChart(data, type), type, labels);
    case 'heatmap':
      return heatmapSvg(heatmapChart(data), labels);
  }
}

/** output_path without its .svg or .png extension; any other dotted suffix stays part of the name. */
function outputBase(outputPath: string): string {
  if (outputPath.trim() === '' || /[/\\]$/.test(outputPath)) {
    throw new InputError(`output_path '${printable(outputPath)}' names no file`, 'give a file name such as figures/accuracy.png');
  }
  if (OTHER_IMAGE.test(outputPath)) {
    throw new InputError(`output_path '${printable(outputPath)}' asks for a format plot does not write`, 'plot writes .svg and .png; give name.svg, name.png or name');
  }
  return outputPath.replace(/\.(svg|png)$/i, '');
}
