import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateFigures } from '../../../../src/skills/plot/generate-figures.ts';
import { type ModelServer, startModelServer } from '../../../support/model-server.ts';
import { pngImages } from '../../../support/scripted-figures.ts';
import { researcherReply } from '../../../support/scripted-researcher.ts';
import { textOfRoles } from '../../../support/scripted-request.ts';
import { closedPort } from '../../llm/helpers.ts';
import { callTool } from '../coding/tool-call.ts';
import { usePlace } from './fixture.ts';

const place = usePlace();
let server: ModelServer;
beforeEach(() => {
  server = startModelServer([], { respond: (body) => researcherReply(body) });
});
afterEach(() => server.stop());

/** A run on an OpenAI-compatible server whose vision model is the scripted researcher. */
const env = (more: Record<string, string> = {}) => ({
  PATH: process.env.PATH,
  HOME: place().home,
  SVC_CHECKPOINT_DIR: place().checkpoint,
  SVC_BACKEND: 'openai-compatible',
  LLM_API_BASE: `${server.url}/v1`,
  SVC_MODEL: 'scripted-researcher',
  VLM_MODEL: 'scripted-vision',
  SVC_LLM_MAX_RETRIES: '0',
  ...more,
});
const generate = (args: Record<string, unknown> = {}, e = env()) => callTool(generateFigures, { output_dir: place().out, science_data_path: place().science(), ...args }, e);
type Body = Parameters<typeof researcherReply>[0];
const bodies = () => server.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as Body);

describe('captions by the vision model, looking at each figure', () => {
  test('each figure is sent as its PNG, with the data caption and the review; the model caption is kept', async () => {
    const { figures, latex_snippets, notes } = await generate({ experiment_context: 'Sort 2,000 integers with few comparisons.', feedback: 'fig:metric_bar: say which bar is the baseline' });
    expect(notes).toEqual([]);
    expect(figures.map((f: { caption_source: string }) => f.caption_source)).toEqual(['vision model', 'vision model', 'vision model']);
    expect(figures[0].caption).toBe('The primary metric, comparisons (lower is better), of each of the 5 configurations that measured it. The best, Shell sort, ratio 2.2, reached 20573; the baseline, Insertion sort, 1003112. Green marks the best configuration and grey the baseline.');
    expect(latex_snippets[0]).toContain('Green marks the best configuration and grey the baseline.}');

    const sent = bodies();
    expect(sent).toHaveLength(3);
    expect(sent.map((b) => b.model)).toEqual(['scripted-vision', 'scripted-vision', 'scripted-vision']);
    figures.forEach((f: { png: string }, i: number) => {
      // the very bytes of the figure's PNG travel in the request, as a data URL
      expect(pngImages(sent[i] as Body)).toEqual([new Uint8Array(readFileSync(join(place().out, f.png)))]);
    });
    const system = textOfRoles(sent[0] as Body, ['system']);
    expect(system).toContain('Sort 2,000 integers with few comparisons.');
    expect(system).toContain('fig:metric_bar: say which bar is the baseline');
    // the calls are in the run's cost ledger, as the figure captions of the paper phase
    const ledger = readFileSync(join(place().checkpoint, 'cost_trace.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(ledger.map((r) => [r.model, r.skill, r.phase])).toEqual(Array(3).fill(['scripted-vision', 'plot-skill', 'paper']));
  });

  test('a caption stating a number the data does not hold is refused: asked again, then the data caption stays', async () => {
    const invented = JSON.stringify({ caption: 'Shell sort needs 12345 comparisons here.' });
    server.push({ text: invented }, { text: invented });
    const { figures, notes } = await generate();
    expect(figures.map((f: { caption_source: string }) => f.caption_source)).toEqual(['data', 'vision model', 'vision model']);
    expect(figures[0].caption).toStartWith('The primary metric, comparisons (lower is better), of each of the 5 configurations');
    expect(notes).toEqual([expect.stringMatching(/^fig:metric_bar keeps its caption from the data: the vlm model scripted-vision gave no acceptable JSON in 2 attempts: the last answer was the caption states 12345, which the figure's data does not hold/)]);
    // the second request showed the model its answer and what was wrong with it
    expect(JSON.stringify(bodies()[1])).toContain('which the figure');
  });

  test('a vision model that cannot be reached: the figures are made with the data captions, and a note says why', async () => {
    const { figures, notes } = await generate({}, env({ LLM_API_BASE: `http://127.0.0.1:${closedPort()}/v1` }));
    expect(figures.map((f: { caption_source: string }) => f.caption_source)).toEqual(['data', 'data', 'data']);
    expect(notes).toEqual([expect.stringMatching(/^captions from fig:metric_bar on are from the data: the vision model scripted-vision failed: /)]);
    expect(readFileSync(join(place().out, 'figures_manifest.json'), 'utf8')).toContain('"caption_source": "data"');
  });

  test('vlm_captions false: no request, the data captions', async () => {
    const { figures, notes } = await generate({ vlm_captions: false });
    expect(server.requests).toEqual([]);
    expect(notes).toEqual([]);
    expect(figures.every((f: { caption_source: string }) => f.caption_source === 'data')).toBe(true);
  });
});
