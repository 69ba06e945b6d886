import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type ModelServer, startModelServer } from '../support/model-server.ts';
import { researcherReply } from '../support/scripted-researcher.ts';
import { removeDir, svc, tempDir } from '../support/svc.ts';

const FIXTURES = resolve(import.meta.dir, '../fixtures/science-data');

// the figure stages of the bundled workflow, with the science data already made
const WORKFLOW = `
pipeline:
  - stage: generate_figures
    skill: plot-skill
    tool: generate_figures
    inputs:
      nodes_json_path: "{{checkpoint_dir}}/nodes_tree.json"
      output_dir: "{{checkpoint_dir}}"
      science_data_path: "{{checkpoint_dir}}/science_data.json"
      feedback: "{{vlm_feedback}}"
    outputs: { file: "{{checkpoint_dir}}/figures_manifest.json" }
  - stage: vlm_review_figures
    skill: vlm-skill
    tool: vlm_review_figures
    depends_on: [generate_figures]
    inputs:
      figures_manifest_path: "{{stages.generate_figures.outputs.file}}"
    outputs: { file: "{{checkpoint_dir}}/vlm_review.json" }
    loop_back_to: generate_figures
    loop_threshold: 0.7
    loop_max_iterations: 2
`;

let dir: string;
let server: ModelServer;
beforeAll(() => {
  dir = tempDir();
  server = startModelServer([], { respond: (body) => researcherReply(body) });
});
afterAll(() => {
  server.stop();
  removeDir(dir);
});

function checkpoint(name: string): string {
  const run = join(dir, 'checkpoints', name);
  mkdirSync(run, { recursive: true });
  // the search's tree: the pre-flight makes nodes_tree.json from it
  writeFileSync(join(run, 'tree.json'), JSON.stringify({ ...json(join(FIXTURES, 'sorting-nodes-tree.json')), run_id: name }));
  writeFileSync(join(run, 'workflow.yaml'), WORKFLOW);
  copyFileSync(join(FIXTURES, 'sorting.json'), join(run, 'science_data.json'));
  return run;
}
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

describe('svc paper: the figure stages, served by the built binary', () => {
  test('with a vision model: figures captioned by it, then its review in vlm_review.json', async () => {
    const run = checkpoint('20261101120000_vision');
    const r = await svc(['paper', run], { cwd: dir, env: { SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `${server.url}/v1`, SVC_MODEL: 'scripted-researcher', VLM_MODEL: 'scripted-vision' } });
    expect(r.stderr).toContain('generate_figures: done');
    expect(r.stderr).toContain('vlm_review_figures: done');
    expect(r.stdout).toContain('post-search pipeline: 2 done');
    expect(r.code).toBe(0);
    const manifest = json(join(run, 'figures_manifest.json'));
    expect(manifest.figures.map((f: { file: string; caption_source: string }) => [f.file, f.caption_source])).toEqual([
      ['fig_metric_bar.pdf', 'vision model'],
      ['fig_best_vs_baseline.pdf', 'vision model'],
      ['fig_sweep_gap_ratio.pdf', 'vision model'],
    ]);
    expect(readFileSync(join(run, 'fig_metric_bar.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
    expect(json(join(run, 'vlm_review.json'))).toMatchObject({ reviewed: true, score: 0.85, model: 'scripted-vision', figures: ['fig:metric_bar', 'fig:best_vs_baseline', 'fig:sweep_gap_ratio'] });
  });

  test('without a vision model: the figures with data captions, a review saying so with no score, and the pipeline goes on', async () => {
    const run = checkpoint('20261101120000_plain');
    const r = await svc(['paper', run], { cwd: dir, env: { SVC_MODEL: 'qwen3:4b' } });
    expect(r.stdout).toContain('post-search pipeline: 2 done');
    expect(r.code).toBe(0);
    const manifest = json(join(run, 'figures_manifest.json'));
    expect(manifest.figures.every((f: { caption_source: string }) => f.caption_source === 'data')).toBe(true);
    expect(manifest.notes).toEqual([expect.stringMatching(/^the captions are from the data: no vision model is configured/)]);
    const review = json(join(run, 'vlm_review.json'));
    expect(review).toMatchObject({ reviewed: false, reason: expect.stringMatching(/^no vision model is configured/) });
    expect(review.score).toBeUndefined();
  });
});
