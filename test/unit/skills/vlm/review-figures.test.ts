import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, InvalidRecordError, NotFoundError } from '../../../../src/core/errors.ts';
import { ModelAnswerError } from '../../../../src/llm/errors.ts';
import { generateFigures } from '../../../../src/skills/plot/generate-figures.ts';
import { vlmReviewFigures } from '../../../../src/skills/vlm/review-figures.ts';
import { type ModelServer, startModelServer } from '../../../support/model-server.ts';
import { pngImages } from '../../../support/scripted-figures.ts';
import { researcherReply } from '../../../support/scripted-researcher.ts';
import { textOfRoles } from '../../../support/scripted-request.ts';
import { callTool } from '../coding/tool-call.ts';
import { usePlace } from '../plot/fixture.ts';

const place = usePlace();
let server: ModelServer;
beforeEach(() => {
  server = startModelServer([], { respond: (body) => researcherReply(body) });
});
afterEach(() => server.stop());

const noVision = () => ({ PATH: process.env.PATH, HOME: place().home, SVC_CHECKPOINT_DIR: place().checkpoint });
const vision = () => ({ ...noVision(), SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, VLM_MODEL: 'scripted-vision', SVC_LLM_MAX_RETRIES: '0' });
const manifestPath = () => join(place().out, 'figures_manifest.json');

/** The fixture's three figures, with the data captions. */
async function figures(): Promise<string> {
  await callTool(generateFigures, { output_dir: place().out, science_data_path: place().science(), vlm_captions: false }, noVision());
  return manifestPath();
}
const review = (env: Record<string, string | undefined>, args: Record<string, unknown> = {}) => callTool(vlmReviewFigures, { figures_manifest_path: manifestPath(), ...args }, env);
type Body = Parameters<typeof researcherReply>[0];

describe('vlm_review_figures', () => {
  test('every figure goes to the vision model as its PNG after its label and caption; the review comes back', async () => {
    await figures();
    const r = await review(vision(), { experiment_context: 'Sort with few comparisons.' });
    expect(r).toEqual({
      reviewed: true,
      score: 0.85,
      issues: [],
      suggestions: ['fig:metric_bar: a logarithmic axis would show the smaller values apart'],
      model: 'scripted-vision',
      figures: ['fig:metric_bar', 'fig:best_vs_baseline', 'fig:sweep_gap_ratio'],
    });
    const [body] = server.requests.map((q) => q.body as Body);
    const manifest = JSON.parse(readFileSync(manifestPath(), 'utf8'));
    expect(pngImages(body as Body)).toEqual(manifest.figures.map((f: { png: string }) => new Uint8Array(readFileSync(join(place().out, f.png)))));
    const user = textOfRoles(body as Body, ['user']);
    expect(user).toContain(`Figure fig:best_vs_baseline (best_vs_baseline). Caption: ${manifest.figures[1].caption}`);
    expect(textOfRoles(body as Body, ['system'])).toContain('Sort with few comparisons.');
  });

  test('without a vision model: no score (so nothing loops back), the reason, and no request', async () => {
    await figures();
    const r = await review(noVision());
    expect(r).toEqual({ reviewed: false, reason: expect.stringMatching(/^no vision model is configured \(PROVIDERA_API_KEY is not set: providera needs it for the vlm model gpt-4o/), issues: [], suggestions: [], figures: ['fig:metric_bar', 'fig:best_vs_baseline', 'fig:sweep_gap_ratio'] });
    expect('score' in r).toBe(false);
    expect(server.requests).toEqual([]);
  });

  test('a score outside 0..1, twice: an error, not a review', async () => {
    await figures();
    const bad = JSON.stringify({ score: 7, issues: [], suggestions: [] });
    server.push({ text: bad }, { text: bad });
    const err = await review(vision()).catch((e) => e);
    expect(err).toBeInstanceOf(ModelAnswerError);
    expect(err.message).toBe("the vlm model scripted-vision gave no acceptable JSON in 2 attempts: the last answer was score must be a number from 0 to 1");
  });
});

describe('vlm_review_figures refuses a manifest it cannot use, before asking any model', () => {
  const refused = async (edit: (m: { figures: Record<string, unknown>[] }) => unknown) => {
    await figures();
    writeFileSync(manifestPath(), JSON.stringify(edit(JSON.parse(readFileSync(manifestPath(), 'utf8')))));
    const err = (await review(vision()).catch((e) => e)) as Error;
    expect(server.requests).toEqual([]);
    return err;
  };

  test('no manifest there; not a manifest', async () => {
    const missing = await review(vision()).catch((e) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.message).toBe(`no figures manifest at ${manifestPath()}`);
    const err = await refused((m) => ({ ...m, figures: [{ ...m.figures[0], png: 3 }] }));
    expect(err).toBeInstanceOf(InvalidRecordError);
    expect(err.message).toBe(`${manifestPath()} is not a figures manifest: figures[0].png: expected string`);
  });

  test('no figures; a PNG that is missing, outside the manifest directory, or no PNG', async () => {
    expect((await refused((m) => ({ ...m, figures: [], latex_snippets: [] }))).message).toBe(`${manifestPath()} lists no figures: there is nothing to review`);
    expect((await refused((m) => ({ ...m, figures: [{ ...m.figures[0], png: 'gone.png' }] }))).message).toBe(`the PNG of fig:metric_bar is missing: no file ${join(place().out, 'gone.png')}`);
    const outside = await refused((m) => ({ ...m, figures: [{ ...m.figures[0], png: '../science_data.json' }] }));
    expect(outside).toBeInstanceOf(InputError);
    expect(outside.message).toMatch(/^the PNG of fig:metric_bar '\.\.\/science_data\.json' is outside /);
    expect((await refused((m) => ({ ...m, figures: [{ ...m.figures[0], png: 'fig_metric_bar.pdf' }] }))).message).toBe(`the PNG of fig:metric_bar (${join(place().out, 'fig_metric_bar.pdf')}) is not a PNG file`);
  });
});
