import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSkill } from '../../../../src/skills/catalog.ts';
import { generateFigures } from '../../../../src/skills/plot/generate-figures.ts';
import { reviewFiguresAllTool, reviewFigureTool, reviewTableTool } from '../../../../src/skills/vlm/review-single.ts';
import { type ModelServer, startModelServer, type Step } from '../../../support/model-server.ts';
import { pngImages } from '../../../support/scripted-figures.ts';
import { researcherReply } from '../../../support/scripted-researcher.ts';
import { promptName, textOfRoles } from '../../../support/scripted-request.ts';
import { callTool } from '../coding/tool-call.ts';
import { usePlace } from '../plot/fixture.ts';
import { rejection } from '../../llm/helpers.ts';

type Body = Parameters<typeof researcherReply>[0];
const place = usePlace();
let server: ModelServer;
let respond: (body: Body) => Step | Promise<Step>;
beforeEach(() => {
  respond = (body) => researcherReply(body);
  server = startModelServer([], { respond: (body) => respond(body as Body) });
});
afterEach(() => server.stop());

const noVision = () => ({ PATH: process.env.PATH, HOME: place().home, SVC_CHECKPOINT_DIR: place().checkpoint });
const vision = () => ({ ...noVision(), SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, VLM_MODEL: 'scripted-vision', SVC_LLM_MAX_RETRIES: '0' });
const manifestPath = () => join(place().out, 'figures_manifest.json');
const manifest = () => JSON.parse(readFileSync(manifestPath(), 'utf8')) as { figures: { label: string; png: string; caption: string }[] };
const bodies = () => server.requests.map((q) => q.body as Body);

/** The fixture's three figures, with the data captions. */
async function figures(): Promise<void> {
  await callTool(generateFigures, { output_dir: place().out, science_data_path: place().science(), vlm_captions: false }, noVision());
}

const TABLE = '\\begin{table}\\centering\\caption{Comparisons per configuration.}\\begin{tabular}{lr}\\hline gap & comparisons \\\\ 2.2 & 8700 \\\\\\hline\\end{tabular}\\end{table}';

describe('vlm-skill review tools', () => {
  test('the skill serves them beside vlm_review_figures', async () => {
    expect((await loadSkill('vlm-skill'))?.tools.map((t) => t.name)).toEqual(['vlm_review_figures', 'review_figure', 'review_figures_all', 'review_table']);
  });

  test('review_figure: the PNG after its label and caption; a score in [0, 1] with issues and suggestions', async () => {
    await figures();
    const f = manifest().figures[0] as { label: string; png: string; caption: string };
    const r = await callTool(reviewFigureTool, { image_path: join('figures', f.png), caption: f.caption, label: f.label, context: 'Sort with few comparisons.' }, vision());
    expect(r).toEqual({
      reviewed: true,
      score: 0.8,
      issues: [`the y axis of ${f.label} has no unit`],
      suggestions: [`label the y axis of ${f.label} with its unit`],
      model: 'scripted-vision',
      label: f.label,
      image_path: join(place().out, f.png),
    });
    const [body] = bodies();
    expect(promptName(body as Body)).toBe('vlm/single_figure_review');
    expect(pngImages(body as Body)).toEqual([new Uint8Array(readFileSync(join(place().out, f.png)))]);
    expect(textOfRoles(body as Body, ['user'])).toContain(`Figure ${f.label}. Caption: ${f.caption}`);
    expect(textOfRoles(body as Body, ['system'])).toContain('Sort with few comparisons.');
  });

  test('review_table: the tables of a LaTeX file, or one table given as LaTeX', async () => {
    writeFileSync(join(place().checkpoint, 'paper.tex'), `\\section{Results}\n${TABLE}\nText.\n\\begin{table}\\begin{tabular}{ll} a & b \\\\ \\end{tabular}\\end{table}\n`);
    const fromFile = await callTool(reviewTableTool, { tex_path: 'paper.tex', context: 'sorting' }, vision());
    expect(fromFile).toEqual({ reviewed: true, score: 0.75, issues: ['1 of 2 tables have no caption'], suggestions: ['align the numbers at the decimal point'], model: 'scripted-vision', tables: 2 });
    const given = await callTool(reviewTableTool, { table_latex: TABLE }, vision());
    expect(given).toMatchObject({ reviewed: true, score: 0.75, issues: [], tables: 1 });
    expect(bodies().map((b) => promptName(b))).toEqual(['vlm/table_review', 'vlm/table_review']);
    expect(textOfRoles(bodies()[1] as Body, ['user'])).toBe(`Table 1:\n${TABLE}`);
    // neither, both, or a file without a table
    expect((await rejection(callTool(reviewTableTool, {}, vision()))).message).toBe('review_table needs a table: give either tex_path or table_latex');
    expect((await rejection(callTool(reviewTableTool, { tex_path: 'paper.tex', table_latex: TABLE }, vision()))).message).toBe('review_table needs a table: give either tex_path or table_latex');
    writeFileSync(join(place().checkpoint, 'empty.tex'), 'No tables here.\n');
    expect((await rejection(callTool(reviewTableTool, { tex_path: 'empty.tex' }, vision()))).message).toBe(`${join(place().checkpoint, 'empty.tex')} has no table (no table or tabular environment)`);
    expect(server.requests).toHaveLength(2);
  });

  test('review_figures_all: every figure reviewed on its own, the requests at the same time; a shape merge_reviews reads', async () => {
    await figures();
    const labels = manifest().figures.map((f) => f.label);
    // every answer is held back until all the figures' requests have come: one at a time would never get there
    const waiting: (() => void)[] = [];
    const timers: ReturnType<typeof setTimeout>[] = [];
    let arrived = 0;
    respond = (body) =>
      new Promise((done) => {
        arrived++;
        waiting.push(() => done(researcherReply(body)));
        if (arrived === labels.length) {
          for (const t of timers) clearTimeout(t);
          for (const go of waiting) go();
        } else timers.push(setTimeout(() => done({ text: JSON.stringify({ score: 0, issues: ['asked one at a time'], suggestions: [] }) }), 4_000));
      });
    const r = await callTool(reviewFiguresAllTool, { figures_manifest_json: 'figures/figures_manifest.json', context: 'Sort.' }, vision());
    expect(arrived).toBe(labels.length);
    expect(r.reviews.map((x: { label: string }) => x.label)).toEqual(labels);
    expect(r.reviews.flatMap((x: { issues: string[] }) => x.issues)).toEqual(labels.map((l) => `the y axis of ${l} has no unit`));
    const scores = r.reviews.map((x: { score: number }) => x.score);
    expect(scores.every((s: number) => s === 0.6 || s === 0.8)).toBe(true);
    expect(r).toMatchObject({ reviewed: true, model: 'scripted-vision', figures: labels, issues: labels.map((l) => `${l}: the y axis of ${l} has no unit`) });
    expect(r.score).toBeCloseTo(scores.reduce((a: number, b: number) => a + b, 0) / scores.length, 10);
    expect(bodies().map((b) => pngImages(b).length)).toEqual(labels.map(() => 1));
  }, 20_000);

  test('without a vision model: one line saying so, no score, no request', async () => {
    await figures();
    const f = manifest().figures[0] as { label: string; png: string; caption: string };
    const results = [
      await callTool(reviewFigureTool, { image_path: join('figures', f.png), caption: f.caption }, noVision()),
      await callTool(reviewFiguresAllTool, { figures_manifest_json: 'figures/figures_manifest.json' }, noVision()),
      await callTool(reviewTableTool, { table_latex: TABLE }, noVision()),
    ];
    for (const r of results) {
      expect(r.reviewed).toBe(false);
      expect('score' in r).toBe(false);
      expect(r.reason).toStartWith('no vision model is configured (');
      expect(r.reason).not.toContain('\n');
      expect(r.issues).toEqual([]);
    }
    expect(server.requests).toEqual([]);
  });

  test('paths outside the checkpoint are refused, before any request', async () => {
    await figures();
    writeFileSync(join(place().base, 'outside.tex'), TABLE);
    const png = join(place().out, manifest().figures[0]?.png ?? '');
    writeFileSync(join(place().base, 'outside.png'), readFileSync(png));
    for (const [tool, args] of [
      [reviewFigureTool, { image_path: '../outside.png', caption: 'x' }],
      [reviewFigureTool, { image_path: join(place().base, 'outside.png'), caption: 'x' }],
      [reviewFiguresAllTool, { figures_manifest_json: '../outside.json' }],
      [reviewTableTool, { tex_path: join(place().base, 'outside.tex') }],
    ] as const) {
      const err = await rejection(callTool(tool as typeof reviewFigureTool, args as Record<string, unknown>, vision()));
      expect(err.message).toMatch(/image_path|figures_manifest_json|tex_path/);
      expect(err.message).not.toBe('no error');
    }
    // a manifest naming a PNG outside its directory
    const m = manifest();
    (m.figures[0] as { png: string }).png = '../../outside.png';
    writeFileSync(manifestPath(), JSON.stringify(m));
    expect((await rejection(callTool(reviewFiguresAllTool, { figures_manifest_json: 'figures/figures_manifest.json' }, vision()))).message).toContain('the PNG of');
    expect(server.requests).toEqual([]);
  });

  test('a file that is not a PNG is refused', async () => {
    writeFileSync(join(place().checkpoint, 'fake.png'), 'not a picture');
    expect((await rejection(callTool(reviewFigureTool, { image_path: 'fake.png', caption: 'x' }, vision()))).message).toBe(`the figure ${join(place().checkpoint, 'fake.png')} (${join(place().checkpoint, 'fake.png')}) is not a PNG file`);
  });
});
