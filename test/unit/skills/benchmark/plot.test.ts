import { describe, expect, test } from 'bun:test';
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { InputError, TooLargeError } from '../../../../src/core/errors.ts';
import { svgToPng } from '../../../../src/chart/png.ts';
import { plot } from '../../../../src/skills/benchmark/plot.ts';
import { countColour, darkPixels, decodePng, PNG_SIGNATURE, pngSize } from './png-decode.ts';
import { useWorkDir } from './work-dir-fixture.ts';
import { checkWellFormed } from './xml-check.ts';

const { base, work, ctx } = useWorkDir();

type Args = Parameters<typeof plot.run>[0];
type Written = { svg: { path: string; bytes: number }; png: { path: string; bytes: number; width: number; height: number } };
const draw = async (args: Partial<Args> & Pick<Args, 'data' | 'plot_type'>) =>
  (await plot.run({ output_path: 'figure', ...args } as Args, ctx())) as Written;

/** The matplotlib colour of the first series, and the ends of the viridis scale. */
const FIRST_SERIES = '#1f77b4';
const VIRIDIS_LOW = '#440154';
const VIRIDIS_HIGH = '#fde725';
/** Scatter points are 75% opaque: the first series' colour over white. */
const FIRST_SERIES_ON_WHITE = '#5799c7';

const PLOTS: [Args['plot_type'], Args['data'], string[]][] = [
  ['bar', { labels: ['ResNet', 'ViT', 'Mixer'], values: [76.1, 81.1, -3.5] }, ['ResNet', 'ViT', 'Mixer']],
  ['bar', { labels: ['a', 'b'], series: { train: [1, 2], test: [0.5, 1.5] } }, ['train', 'test']],
  ['line', { x: [0, 1, 2, 3], y: [2.5, 1.4, 0.9, 0.7] }, []],
  ['line', { series: { 'lr=1e-3': { x: [0, 1, 2], y: [3, 2, 1] }, 'lr=1e-4': { x: [0, 1, 2], y: [3, 2.5, 2.2] } } }, ['lr=1e-3', 'lr=1e-4']],
  ['scatter', { x: [0.001, 0.002, 0.003, 0.004], y: [1e6, 3e6, 2e6, 4e6] }, ['1e6']],
  ['heatmap', { matrix: [[1, 2, 3], [4, 5, 6]], x_labels: ['c1', 'c2', 'c3'], y_labels: ['r1', 'r2'] }, ['c1', 'r2']],
];

describe('plot writes an SVG and a PNG of every type', () => {
  test.each(PLOTS)('%s %j', async (type, data, texts) => {
    const out = await draw({ data, plot_type: type, title: 'Results & <more>', xlabel: 'x "axis"', ylabel: "y 'axis'" });
    expect(out.svg.path).toBe(join(work(), 'figure.svg'));
    expect(out.png.path).toBe(join(work(), 'figure.png'));

    const svg = readFileSync(out.svg.path, 'utf8');
    expect(Buffer.byteLength(svg)).toBe(out.svg.bytes);
    expect(checkWellFormed(svg).root).toBe('svg');
    expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(svg).toContain('Results &amp; &lt;more&gt;');
    expect(svg).toContain('x &quot;axis&quot;');
    for (const t of texts) expect(svg).toContain(`>${t}<`);

    const png = new Uint8Array(readFileSync(out.png.path));
    expect(png.length).toBe(out.png.bytes);
    expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    expect(pngSize(png)).toEqual({ width: 1600, height: 1000 });
    expect(out.png).toMatchObject({ width: 1600, height: 1000 });

    const image = decodePng(png);
    if (type === 'heatmap') {
      expect(countColour(image, VIRIDIS_LOW)).toBeGreaterThan(1000);
      expect(countColour(image, VIRIDIS_HIGH)).toBeGreaterThan(1000);
    } else if (type === 'scatter') {
      expect(countColour(image, FIRST_SERIES_ON_WHITE, 2)).toBeGreaterThan(50);
    } else {
      expect(countColour(image, FIRST_SERIES)).toBeGreaterThan(50);
    }
    // the title is drawn in the band above the plot, and nothing is drawn in the outermost pixels
    expect(darkPixels(image, 400, 20, 1200, 80)).toBeGreaterThan(200);
    expect(darkPixels(image, 0, 0, 1600, 4) + darkPixels(image, 0, 996, 1600, 1000)).toBe(0);
  });

  test('the written SVG parses again and renders the same PNG', async () => {
    const out = await draw({ data: { labels: ['a', 'b'], values: [1, 2] }, plot_type: 'bar' });
    const again = await svgToPng(readFileSync(out.svg.path, 'utf8'));
    expect(Buffer.from(again.bytes).equals(readFileSync(out.png.path))).toBe(true);
  });

  test('a bar group gets one colour per series, and the legend names them', async () => {
    const out = await draw({ data: { labels: ['a'], series: { one: [1], two: [2], three: [3] } }, plot_type: 'bar' });
    const svg = readFileSync(out.svg.path, 'utf8');
    for (const colour of ['#1f77b4', '#ff7f0e', '#2ca02c']) expect(svg.split(`fill="${colour}"`).length - 1).toBe(2);
  });

  test.each([
    ['fig.svg', 'fig'],
    ['fig.PNG', 'fig'],
    ['fig', 'fig'],
    ['figures/acc_lr0.01', 'figures/acc_lr0.01'],
  ])('output_path %s writes %s.svg and %s.png', async (outputPath, stem) => {
    const out = await draw({ data: { x: [1, 2], y: [3, 4] }, plot_type: 'line', output_path: outputPath });
    expect(out.svg.path).toBe(join(work(), `${stem}.svg`));
    expect(out.png.path).toBe(join(work(), `${stem}.png`));
    expect(statSync(out.png.path).size).toBe(out.png.bytes);
  });

  test('work_dir wins over SVC_WORK_DIR', async () => {
    const other = join(base(), 'other');
    const out = await draw({ data: { x: [1, 2], y: [3, 4] }, plot_type: 'scatter', work_dir: other });
    expect(out.svg.path).toBe(join(other, 'figure.svg'));
    expect(readdirSync(work())).toEqual([]);
  });

  test('one value, and all values equal, still make a chart', async () => {
    await draw({ data: { x: [5], y: [5] }, plot_type: 'scatter', output_path: 'one' });
    await draw({ data: { matrix: [[2, 2], [2, 2]] }, plot_type: 'heatmap', output_path: 'flat' });
    expect(readdirSync(work()).sort()).toEqual(['flat.png', 'flat.svg', 'one.png', 'one.svg']);
  });
});

describe('plot refuses bad input and writes nothing', () => {
  const cases: [string, Partial<Args>, RegExp][] = [
    ['empty values', { plot_type: 'bar', data: { labels: [], values: [] } }, /^data\.labels is empty$/],
    ['empty x', { plot_type: 'line', data: { x: [], y: [] } }, /^data\.x is empty$/],
    ['empty matrix', { plot_type: 'heatmap', data: { matrix: [] } }, /^data\.matrix is empty$/],
    ['values and labels differ', { plot_type: 'bar', data: { labels: ['a', 'b'], values: [1, 2, 3] } }, /^data\.values has 3 numbers for 2 labels$/],
    ['a series too short', { plot_type: 'bar', data: { labels: ['a', 'b'], series: { s1: [1, 2], s2: [1] } } }, /^data\.series\.s2 has 1 numbers for 2 labels$/],
    ['x and y differ', { plot_type: 'scatter', data: { x: [1, 2, 3], y: [1, 2] } }, /^data\.x and data\.y have different lengths \(3 and 2\)$/],
    ['series x and y differ', { plot_type: 'line', data: { series: { a: { x: [1], y: [1, 2] } } } }, /^data\.series\.a\.x and data\.series\.a\.y have different lengths/],
    ['NaN', { plot_type: 'line', data: { x: [1, 2], y: [1, Number.NaN] } }, /^data\.y\[1\] is not a finite number$/],
    ['Infinity in a matrix', { plot_type: 'heatmap', data: { matrix: [[1, Number.POSITIVE_INFINITY]] } }, /^data\.matrix\[0\]\[1\] is not a finite number$/],
    ['uneven matrix', { plot_type: 'heatmap', data: { matrix: [[1, 2], [3]] } }, /^data\.matrix\[1\] has 1 numbers but data\.matrix\[0\] has 2$/],
    ['too few heatmap labels', { plot_type: 'heatmap', data: { matrix: [[1, 2]], x_labels: ['a'] } }, /^data\.x_labels has 1 labels for 2 columns$/],
    ['bar data for a line', { plot_type: 'line', data: { labels: ['a'], values: [1] } }, /^data needs x and y, or series, for a line plot$/],
    ['line data for a bar', { plot_type: 'bar', data: { x: [1], y: [1] } }, /^data\.labels is required for a bar plot$/],
    ['bar series for a scatter', { plot_type: 'scatter', data: { labels: ['a'], series: { s: [1] } } }, /^data\.series\.s must be \{x, y\} for a scatter plot$/],
    ['values and series both', { plot_type: 'bar', data: { labels: ['a'], values: [1], series: { s: [1] } } }, /^data has both values and series/],
    ['no series', { plot_type: 'bar', data: { labels: ['a'], series: {} } }, /^data\.series is empty$/],
    ['x without y', { plot_type: 'line', data: { x: [1, 2] } }, /^data\.y must be a list of numbers$/],
    ['missing matrix', { plot_type: 'heatmap', data: { x: [1], y: [2] } }, /^data\.matrix is required for a heatmap$/],
    ['traversal', { output_path: '../escape' }, /^output_path '\.\.\/escape\.svg' is outside/],
    ['absolute path elsewhere', { output_path: '/tmp/elsewhere.png' }, /^output_path '\/tmp\/elsewhere\.svg' is outside/],
    ['another format', { output_path: 'figure.pdf' }, /^output_path 'figure\.pdf' asks for a format plot does not write/],
    ['a directory name', { output_path: 'figures/' }, /^output_path 'figures\/' names no file/],
    ['an empty name', { output_path: '' }, /^output_path '' names no file/],
  ];
  test.each(cases)('%s', async (_, args, message) => {
    const call = draw({ plot_type: 'bar', data: { labels: ['a'], values: [1] }, ...args } as Args);
    await expect(call).rejects.toThrow(InputError);
    await expect(draw({ plot_type: 'bar', data: { labels: ['a'], values: [1] }, ...args } as Args)).rejects.toThrow(message);
    expect(readdirSync(work())).toEqual([]);
    expect(readdirSync(base())).toEqual(['work']);
  });

  test('a symlink leading out of the work dir is refused', async () => {
    mkdirSync(join(base(), 'outside'));
    symlinkSync(join(base(), 'outside'), join(work(), 'link'));
    await expect(draw({ plot_type: 'bar', data: { labels: ['a'], values: [1] }, output_path: 'link/fig' })).rejects.toThrow(/is outside/);
    expect(readdirSync(join(base(), 'outside'))).toEqual([]);
  });

  test('an output name that is a directory is refused', async () => {
    mkdirSync(join(work(), 'figure.png'));
    await expect(draw({ plot_type: 'bar', data: { labels: ['a'], values: [1] } })).rejects.toThrow(/is a directory/);
    expect(readdirSync(work())).toEqual(['figure.png']);
  });

  test('a relative SVC_WORK_DIR is refused', async () => {
    const call = plot.run({ data: { x: [1], y: [1] }, plot_type: 'line', output_path: 'f' }, { signal: new AbortController().signal, env: { SVC_WORK_DIR: 'rel' } });
    await expect(call).rejects.toThrow(/^SVC_WORK_DIR 'rel' is not an absolute path$/);
  });

  test('more points than the limit', async () => {
    const x = new Array(1_000_001).fill(1);
    await expect(draw({ plot_type: 'scatter', data: { x, y: x } })).rejects.toThrow(TooLargeError);
    expect(readdirSync(work())).toEqual([]);
  });

  test('an existing figure is replaced whole, never left half-written', async () => {
    writeFileSync(join(work(), 'figure.svg'), 'old');
    await draw({ plot_type: 'bar', data: { labels: ['a'], values: [1] } });
    expect(checkWellFormed(readFileSync(join(work(), 'figure.svg'), 'utf8')).root).toBe('svg');
    expect(readdirSync(work()).sort()).toEqual(['figure.png', 'figure.svg']);
  });
});

describe('plot schema', () => {
  const valid = { data: { labels: ['a'], values: [1] }, plot_type: 'bar', output_path: 'f' };
  test('accepts the four types and every documented data shape', () => {
    for (const [type, data] of PLOTS) expect(Value.Check(plot.params, { ...valid, plot_type: type, data })).toBe(true);
  });
  test('refuses an unknown plot type, a missing output_path and data of no known shape', () => {
    expect(Value.Check(plot.params, { ...valid, plot_type: 'pie' })).toBe(false);
    expect(Value.Check(plot.params, { data: valid.data, plot_type: 'bar' })).toBe(false);
    expect(Value.Check(plot.params, { ...valid, data: { matrix: 'nope' } })).toBe(false);
    expect(Value.Check(plot.params, { ...valid, data: { labels: ['a'], values: ['1'] } })).toBe(false);
    expect(Value.Check(plot.params, { ...valid, data: { labels: ['a'], value: [1] } })).toBe(false);
  });
});
