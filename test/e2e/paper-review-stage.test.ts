import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lacks } from '../support/components.ts';
import { type ModelServer, startModelServer } from '../support/model-server.ts';
import { writePaper } from '../support/paper.ts';
import { type OpenAIChatRequest, researcherReply } from '../support/scripted-researcher.ts';
import { promptName } from '../support/scripted-request.ts';
import { removeDir, svc, tempDir } from '../support/svc.ts';
import { startViz } from '../support/viz.ts';

// The bundled workflow's review_paper stage, run by svc paper after the paper was written: it was
// "unavailable" before the paper skill had review_compiled_paper.

const RUN = '20260101000000_sort';
let dir: string;
let ws: string;
let run: string;
let model: ModelServer;
const skip = lacks('latex') || lacks('pdftools');

beforeAll(() => {
  dir = tempDir();
  ws = join(dir, 'workspace');
  run = join(ws, 'checkpoints', RUN);
  mkdirSync(run, { recursive: true });
  writeFileSync(join(run, 'experiment.md'), '# Fewer comparisons\n\nSort a seeded array of 1000 numbers with as few comparisons as possible.\n');
  writeFileSync(join(run, 'idea.json'), JSON.stringify({ ideas: [{ title: 'Shell sort gaps', description: 'Geometric gap ratios.' }], primary_metric: 'comparisons' }));
  writeFileSync(join(run, 'tree.json'), JSON.stringify({ run_id: RUN, nodes: [{ id: 'n1', status: 'success', has_real_data: true, metrics: { _scientific_score: 0.7, comparisons: 8700 } }] }));
  writeFileSync(join(run, 'figures_manifest.json'), JSON.stringify({ figures: [{ file: 'f.pdf', png: 'f.png', kind: 'metric_bar', caption: 'Comparisons of every configuration.', caption_source: 'data', label: 'fig:metric', source: {} }], latex_snippets: [''], notes: [] }));
  model = startModelServer([], { respond: (body) => researcherReply(body as OpenAIChatRequest) });
  if (skip) return;
  // the paper as write_paper leaves it: full_paper.tex and its compiled full_paper.pdf
  const tex = writePaper(join(dir, 'paper'), 'arxiv', { body: '\\section{Results}\nShell sort with a geometric gap ratio needs fewer comparisons than insertion sort.\n' });
  const built = Bun.spawnSync(['latexmk', '-pdf', '-interaction=nonstopmode', 'main.tex'], { cwd: join(dir, 'paper'), stdout: 'ignore', stderr: 'ignore' });
  if (built.exitCode !== 0) throw new Error('the test paper did not compile');
  copyFileSync(tex, join(run, 'full_paper.tex'));
  copyFileSync(join(dir, 'paper', 'main.pdf'), join(run, 'full_paper.pdf'));
}, 120_000);
afterAll(() => {
  model.stop();
  removeDir(dir);
});

const env = () => ({ SVC_ROOT: dir, SVC_BACKEND: 'openai-compatible', LLM_API_BASE: `http://127.0.0.1:9/v1`, SVC_MODEL: 'scripted-researcher', MEMBACKEND_BASE_URL: 'http://127.0.0.1:9', SVC_MEMORY_LETTA_TIMEOUT_S: '2' });

describe.skipIf(skip)('the review_paper stage of the bundled workflow', () => {
  test('runs with the flags of svc paper, writes review_report.json; the checkpoint list and summary show its score', async () => {
    const r = await svc(['paper', run, '--stage', 'review_paper', '--rubric', 'iclr', '--num-reviews-ensemble', '2', '--num-reflections', '1'], { cwd: dir, env: { ...env(), LLM_API_BASE: `${model.url}/v1` } });
    expect(r.stderr).toContain(`review_paper: done (${join(run, 'review_report.json')})`);
    expect(r.code).toBe(0);
    const report = JSON.parse(readFileSync(join(run, 'review_report.json'), 'utf8'));
    expect(report).toMatchObject({ rubric_id: 'iclr', n: 2, captions_found: 1, fewshot_sources: [{ id: 'vision_transformer', source: 'svc corpus' }] });
    expect(report.ensemble_reviews).toHaveLength(2);
    expect(report.meta_review.source_review_count).toBe(2);
    expect(typeof report.overall_score).toBe('number');
    const asked = model.requests.filter((q) => q.path === '/v1/chat/completions').map((q) => promptName(q.body as OpenAIChatRequest));
    expect(asked.filter((n) => n === 'paper/reviewer')).toHaveLength(2);
    expect(asked.filter((n) => n === 'paper/meta_review')).toHaveLength(1);

    const viz = await startViz([ws], { cwd: dir, env: { MEMBACKEND_BASE_URL: 'http://127.0.0.1:9', SVC_MEMORY_LETTA_TIMEOUT_S: '2' } });
    try {
      const list = await viz.get('/api/checkpoints');
      expect(list.body.find((c: { id: string }) => c.id === RUN)?.review_score).toBe(report.overall_score);
      const summary = await viz.get(`/api/checkpoint/${RUN}/summary`);
      expect(summary.body).toMatchObject({ review_score: report.overall_score, review: { rubric_id: 'iclr', overall_score: report.overall_score } });
    } finally {
      await viz.stop();
    }
  }, 120_000);

  test('without the compiled paper the stage fails in one line naming the fix, and writes no report', async () => {
    rmSync(join(run, 'review_report.json'), { force: true });
    rmSync(join(run, 'full_paper.pdf'));
    const r = await svc(['paper', run, '--stage', 'review_paper'], { cwd: dir, env: { ...env(), LLM_API_BASE: `${model.url}/v1` } });
    expect(r.stderr).toContain(`review_paper: failed (no compiled paper at ${join(run, 'full_paper.pdf')} (compile the paper first (compile_paper, or the write_paper stage)))`);
    // a failed stage ends only itself (paper-pipeline.test.ts)
    expect(r.stdout).toContain('1 failed');
    expect(existsSync(join(run, 'review_report.json'))).toBe(false);
  }, 120_000);
});
