import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { InputError, InvalidRecordError, NotFoundError } from '../../../../src/core/errors.ts';
import { compileLatex } from '../../../../src/paper/compile.ts';
import { FiguresManifest } from '../../../../src/schema/figures-manifest.ts';
import { generateFigures } from '../../../../src/skills/plot/generate-figures.ts';
import { lacks } from '../../../support/components.ts';
import { callTool } from '../coding/tool-call.ts';
import { scienceData, usePlace } from './fixture.ts';

const place = usePlace();
/** The skill process's environment with no model key: no vision model. */
const env = (more: Record<string, string> = {}) => ({ PATH: process.env.PATH, HOME: place().home, SVC_CHECKPOINT_DIR: place().checkpoint, ...more });
const generate = (args: Record<string, unknown> = {}, e = env()) =>
  callTool(generateFigures, { output_dir: place().out, ...args, science_data_path: args.science_data_path ?? place().science() }, e);
const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'figures_manifest.json'), 'utf8'));
const run = (cmd: string[]) => {
  const r = Bun.spawnSync(cmd, { stdout: 'pipe', stderr: 'pipe' });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
};

describe.skipIf(lacks('rsvg') || lacks('poppler'))('figures from the science data', () => {
  test('the metric of every configuration, best against baseline and the gap-ratio sweep: PDF and PNG files and a manifest', async () => {
    const out = await generate({ nodes_json_path: place().nodesTree });
    const manifest = manifestOf(place().out);
    expect(Value.Check(FiguresManifest, manifest)).toBe(true);
    expect(out).toEqual({ manifest_path: join(place().out, 'figures_manifest.json'), ...manifest });
    expect(manifest.figures.map((f: { kind: string; file: string; png: string; label: string }) => [f.kind, f.file, f.png, f.label])).toEqual([
      ['metric_bar', 'fig_metric_bar.pdf', 'fig_metric_bar.png', 'fig:metric_bar'],
      ['best_vs_baseline', 'fig_best_vs_baseline.pdf', 'fig_best_vs_baseline.png', 'fig:best_vs_baseline'],
      ['param_sweep', 'fig_sweep_gap_ratio.pdf', 'fig_sweep_gap_ratio.png', 'fig:sweep_gap_ratio'],
    ]);
    expect(readdirSync(place().out).sort()).toEqual(['fig_best_vs_baseline.pdf', 'fig_best_vs_baseline.png', 'fig_metric_bar.pdf', 'fig_metric_bar.png', 'fig_sweep_gap_ratio.pdf', 'fig_sweep_gap_ratio.png', 'figures_manifest.json']);

    // every number shown is a science-data value under its anchor key
    const data = scienceData();
    for (const f of manifest.figures as { source: Record<string, number> }[]) {
      for (const [key, value] of Object.entries(f.source)) expect(data.values[key]?.value).toBe(value);
    }
    const [bar, pair, sweep] = manifest.figures;
    expect(Object.keys(bar.source)).toEqual(['node_root.comparisons', 'node_a.comparisons', 'node_b.comparisons', 'node_c.comparisons', 'node_d.comparisons', 'best.comparisons', 'baseline.comparisons']);
    expect(bar.caption).toBe('The primary metric, comparisons (lower is better), of each of the 5 configurations that measured it. The best, Shell sort, ratio 2.2, reached 20573; the baseline, Insertion sort, 1003112.');
    expect(pair.caption).toContain('20573 against 1003112. That is 48.76 times better, a change of -97.95% from the baseline.');
    // the sweep holds the other settings fixed: merge and insertion sort are not in it
    expect(Object.keys(sweep.source)).toEqual(['node_a.comparisons', 'node_b.comparisons', 'node_c.comparisons']);
    expect(sweep.caption).toContain('against gap_ratio across the configurations that differ only in gap_ratio (the others fixed: algorithm = shell, n = 2000, seed = 7)');
    expect(manifest.figures.every((f: { caption_source: string }) => f.caption_source === 'data')).toBe(true);
    expect(manifest.notes).toEqual([expect.stringMatching(/^the captions are from the data: no vision model is configured \(PROVIDERA_API_KEY is not set/)]);
    expect(manifest.latex_snippets[2]).toBe(
      '\\begin{figure}[htbp]\n  \\centering\n  \\includegraphics[width=0.8\\linewidth]{fig_sweep_gap_ratio.pdf}\n' +
        `  \\caption{${sweep.caption.replaceAll('_', '\\_')}}\n  \\label{fig:sweep_gap_ratio}\n\\end{figure}\n`,
    );

    // the chart's text stays text in the PDF
    const pairText = run(['pdftotext', join(place().out, 'fig_best_vs_baseline.pdf'), '-']).out;
    expect(pairText).toContain('Shell sort, ratio 2.2 (best)');
    expect(pairText).toContain('Insertion sort (baseline)');
    expect(run(['pdfinfo', join(place().out, 'fig_metric_bar.pdf')]).out).toMatch(/Pages:\s+1\n[\s\S]*Page size:\s+600 x 375 pts/);
  });

  test.skipIf(lacks('latex'))('a LaTeX document with every figure compiles with pdflatex, the figures in it as vector graphics', async () => {
    const { latex_snippets } = await generate();
    const tex = join(place().out, 'paper.tex');
    writeFileSync(tex, `\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\nFigures \\ref{fig:metric_bar}, \\ref{fig:best_vs_baseline} and \\ref{fig:sweep_gap_ratio}.\n${latex_snippets.join('\n')}\n\\end{document}\n`);
    const compiled = await compileLatex(tex, { env: { PATH: process.env.PATH, HOME: place().home } });
    expect(compiled).toMatchObject({ ok: true });
    expect(run(['pdfinfo', join(place().out, 'paper.pdf')]).out).toMatch(/Pages:\s+[1-9]/);
    const text = run(['pdftotext', join(place().out, 'paper.pdf'), '-']).out.replace(/\s+/g, ' ');
    expect(text).toContain('Figures 1, 2 and 3.');
    // pdftotext reads the underscore of the default font as a space
    expect(text).toContain('Figure 3: The primary metric, comparisons (lower is better), against gap ratio across the configurations');
    expect(text).toContain('a change of -97.95% from the baseline');
    // axis titles, read from the included figures: vector text, not pixels
    expect(text).toContain('comparisons, lower is better');
    expect(text).toContain('gap_ratio');
    expect(run(['pdfimages', '-list', join(place().out, 'paper.pdf')]).out.trim().split('\n')).toHaveLength(2);
  });

  test.skipIf(lacks('latex'))('without rsvg-convert the figures are 1600x1000 PNG, which pdflatex includes too, and a note says how to get PDF', async () => {
    const bare = join(place().base, 'bin');
    mkdirSync(bare);
    const { figures, latex_snippets, notes } = await generate({ figures: ['metric_bar'] }, env({ PATH: bare }));
    expect(figures.map((f: { file: string }) => f.file)).toEqual(['fig_metric_bar.png']);
    expect(notes[0]).toBe('the figures are PNG, not vector PDF: rsvg-convert is not installed (apt-get install librsvg2-bin)');
    expect(readdirSync(place().out).sort()).toEqual(['fig_metric_bar.png', 'figures_manifest.json']);
    const tex = join(place().out, 'paper.tex');
    writeFileSync(tex, `\\documentclass{article}\n\\usepackage{graphicx}\n\\begin{document}\n${latex_snippets[0]}\n\\end{document}\n`);
    expect(await compileLatex(tex, { env: { PATH: process.env.PATH, HOME: place().home } })).toMatchObject({ ok: true });
    expect(run(['pdfimages', '-list', join(place().out, 'paper.pdf')]).out).toMatch(/\n\s*1\s+0\s+image\s+1600\s+1000\s/);
  });

  test('figures names the kinds to draw; a kind the data cannot support is an error naming why', async () => {
    const { figures } = await generate({ figures: ['param_sweep', 'metric_bar'] });
    expect(figures.map((f: { kind: string }) => f.kind)).toEqual(['param_sweep', 'metric_bar']);

    const noSweep = scienceData();
    noSweep.configurations = noSweep.configurations.filter((c) => c.node_id !== 'node_c');
    const err = await generate({ science_data_path: place().science(noSweep), figures: ['param_sweep'], output_dir: join(place().checkpoint, 'other') }).catch((e) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe('figures asks for param_sweep, but no numeric setting takes three or more values across configurations that differ in nothing else');
    expect(existsSync(join(place().checkpoint, 'other'))).toBe(false);
  });

  test('left to the default, what the data does not support is left out: no baseline, no best-against-baseline figure', async () => {
    const data = scienceData();
    data.baseline = null;
    delete data.values['baseline.comparisons'];
    const { figures } = await generate({ science_data_path: place().science(data) });
    expect(figures.map((f: { kind: string }) => f.kind)).toEqual(['metric_bar', 'param_sweep']);
  });
});

describe('bad science data: one clear line, and nothing written', () => {
  const refused = async (data: unknown, args: Record<string, unknown> = {}) => {
    const err = await generate({ science_data_path: place().science(data), ...args }).catch((e) => e);
    expect(existsSync(place().out)).toBe(false);
    return err as Error;
  };

  test('no configurations: nothing to draw', async () => {
    const err = await refused({ ...scienceData(), configurations: [], best: null, baseline: null, values: {} });
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe(`${join(place().checkpoint, 'science_data.json')} has no configurations: no node of the run measured anything, so there is nothing to draw`);
  });

  test('a field of the wrong type is named by its path', async () => {
    const data = scienceData() as unknown as { configurations: { metrics: Record<string, unknown> }[] };
    (data.configurations[1] as { metrics: Record<string, unknown> }).metrics.comparisons = '31210';
    const err = await refused(data);
    expect(err).toBeInstanceOf(InvalidRecordError);
    expect(err.message).toBe(`${join(place().checkpoint, 'science_data.json')} is not valid science data: configurations[1].metrics.comparisons: expected number (got "31210")`);
  });

  test('a missing field, another schema version', async () => {
    const { primary_metric: _, ...noMetric } = scienceData();
    expect((await refused(noMetric)).message).toEndWith('is not valid science data: primary_metric: expected required property (got nothing)');
    expect((await refused({ ...scienceData(), schema_version: 2 })).message).toEndWith('is not valid science data: schema_version: expected 1 (got 2)');
  });

  test('numbers that contradict each other: a best that is not what its configuration measured, a value anchored to a node', async () => {
    const data = scienceData();
    data.best = { node_id: 'node_b', value: 20000 };
    expect((await refused(data)).message).toEndWith('is not valid science data: best.value: 20000 is not what configuration node_b measured of comparisons (20573)');
    const anchored = scienceData();
    (anchored.values['node_c.comparisons'] as { value: number }).value = 1;
    expect((await refused(anchored)).message).toEndWith("is not valid science data: values['node_c.comparisons'].value: 1 is not what configuration node_c measured of comparisons (24480)");
    const unknown = scienceData();
    unknown.baseline = { node_id: 'node_zz', value: 1 };
    expect((await refused(unknown)).message).toEndWith("is not valid science data: baseline.node_id: 'node_zz' is the node of no configuration");
  });

  test('not JSON, not there, the primary metric measured by none', async () => {
    const notJson = await refused('{"schema_version": 1,');
    expect(notJson).toBeInstanceOf(InvalidRecordError);
    expect(notJson.message).toStartWith(`${join(place().checkpoint, 'science_data.json')} is not JSON: `);
    const missing = await generate({ science_data_path: join(place().checkpoint, 'nope.json') }).catch((e) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.message).toBe(`no science data at ${join(place().checkpoint, 'nope.json')}`);
    const data = scienceData();
    data.primary_metric.name = 'runtime_s';
    data.best = null;
    data.baseline = null;
    expect((await refused(data)).message).toBe(`no configuration in ${join(place().checkpoint, 'science_data.json')} measured the primary metric runtime_s, so there is nothing to draw`);
  });

  test('science data of another run than the node tree given', async () => {
    const data = scienceData();
    (data.configurations[4] as { node_id: string }).node_id = 'node_elsewhere';
    for (const key of Object.keys(data.values)) if (key.startsWith('node_d.')) delete data.values[key];
    const err = await refused(data, { nodes_json_path: place().nodesTree });
    expect(err.message).toBe(`${join(place().checkpoint, 'science_data.json')} is not from the run of ${place().nodesTree}: its configuration node_elsewhere is none of that run's nodes`);
  });

  test('paths outside the run\'s checkpoint are refused: the model naming them cannot reach elsewhere', async () => {
    const err = await generate({ output_dir: join(place().base, 'elsewhere') }).catch((e) => e);
    expect(err.message).toBe(`output_dir '${join(place().base, 'elsewhere')}' is outside ${place().checkpoint}`);
    expect(existsSync(join(place().base, 'elsewhere'))).toBe(false);
    expect((await generate({ science_data_path: '../science_data.json' }).catch((e) => e)).message).toStartWith("science_data_path '../science_data.json' is outside");
  });

  test('an output_dir that is a file; an empty figures list', async () => {
    writeFileSync(join(place().checkpoint, 'a-file'), 'x');
    expect((await generate({ output_dir: join(place().checkpoint, 'a-file') }).catch((e) => e)).message).toBe(`output_dir '${join(place().checkpoint, 'a-file')}' is not a directory`);
    expect((await generate({ figures: [] }).catch((e) => e)).message).toBe("generate_figures: argument 'figures' expected array length to be greater or equal to 1, got an array");
  });
});
