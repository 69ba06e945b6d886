import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeDir, svc, tempDir } from '../support/svc.ts';

// The bundled workflow's merge_reviews stage, run by svc paper after the paper was reviewed: it was
// "unavailable" before the paper skill had merge_reviews. It calls no model.

const RUN = '20260101000000_sort';
let dir: string;
let run: string;

const REPORT = { rubric_id: 'neurips', scores: { overall: 5 }, score_dimensions: [{ name: 'overall', value: 5, scale: [1, 10] }], decision: 'reject', overall_score: 5, score: 5, weaknesses: 'Small study.', issues: [], recommendations: [], n: 1 };
const VLM = { reviewed: true, score: 0.55, issues: ['fig:metric: the axis has no unit'], suggestions: ['fig:metric: label the axis'], model: 'scripted-vision', figures: ['fig:metric'] };

beforeAll(() => {
  dir = tempDir();
  run = join(dir, 'workspace', 'checkpoints', RUN);
  mkdirSync(run, { recursive: true });
  writeFileSync(join(run, 'experiment.md'), '# Fewer comparisons\n');
  writeFileSync(join(run, 'tree.json'), JSON.stringify({ run_id: RUN, nodes: [{ id: 'n1', status: 'success', has_real_data: true, metrics: { comparisons: 8700 } }] }));
});
afterAll(() => removeDir(dir));

// no model can be reached: the stage must not need one
const env = () => ({ SVC_ROOT: dir, SVC_BACKEND: 'openai-compatible', LLM_API_BASE: 'http://127.0.0.1:9/v1', SVC_MODEL: 'none-reachable', MEMBACKEND_BASE_URL: 'http://127.0.0.1:9', SVC_MEMORY_LETTA_TIMEOUT_S: '2' });

describe('the merge_reviews stage of the bundled workflow', () => {
  test('folds vlm_review.json into review_report.json and writes review_merge_log.json', async () => {
    writeFileSync(join(run, 'review_report.json'), JSON.stringify(REPORT));
    writeFileSync(join(run, 'vlm_review.json'), JSON.stringify(VLM));
    const r = await svc(['paper', run, '--stage', 'merge_reviews'], { cwd: dir, env: env() });
    expect(r.stderr).toContain(`merge_reviews: done (${join(run, 'review_merge_log.json')})`);
    expect(r.code).toBe(0);
    const report = JSON.parse(readFileSync(join(run, 'review_report.json'), 'utf8'));
    expect(report).toMatchObject({ scores: REPORT.scores, overall_score: 5, decision: 'reject', issues: ['[fig:metric] the axis has no unit'], recommendations: ['[fig:metric] label the axis'] });
    expect(report.vlm_figure_review.score).toBe(0.55);
    expect(JSON.parse(readFileSync(join(run, 'review_report.reviewer.json'), 'utf8'))).toEqual(REPORT);
    const log = JSON.parse(readFileSync(join(run, 'review_merge_log.json'), 'utf8'));
    expect(log).toMatchObject({ merged: true, review_report: join(run, 'review_report.json'), vlm_review: join(run, 'vlm_review.json'), scores_changed: false });
  }, 60_000);

  test('without vlm_review.json the stage is done, the report unchanged, the log says why', async () => {
    rmSync(join(run, 'review_report.reviewer.json'), { force: true });
    rmSync(join(run, 'vlm_review.json'), { force: true });
    writeFileSync(join(run, 'review_report.json'), JSON.stringify(REPORT));
    const r = await svc(['paper', run, '--stage', 'merge_reviews'], { cwd: dir, env: env() });
    expect(r.stderr).toContain('merge_reviews: done');
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(join(run, 'review_report.json'), 'utf8'))).toEqual(REPORT);
    const log = JSON.parse(readFileSync(join(run, 'review_merge_log.json'), 'utf8'));
    expect(log).toMatchObject({ merged: false, reason: `there is no figure review at ${join(run, 'vlm_review.json')}: the review report is left as the reviewers wrote it` });
  }, 60_000);

  test('a damaged review report fails the stage in one line; nothing is merged', async () => {
    rmSync(join(run, 'review_merge_log.json'), { force: true });
    writeFileSync(join(run, 'vlm_review.json'), JSON.stringify(VLM));
    // JSON but no review: the tool's line with the fix
    writeFileSync(join(run, 'review_report.json'), JSON.stringify({ summary: 'no scores' }));
    let r = await svc(['paper', run, '--stage', 'merge_reviews'], { cwd: dir, env: env() });
    expect(r.stderr).toContain(`merge_reviews: failed (the review report ${join(run, 'review_report.json')} is not a review (no scores) (review the paper first (the review_paper stage, review_compiled_paper), which writes review_report.json))`);
    expect(r.stdout).toContain('1 failed');
    // not JSON at all: the pipeline does not take it as review_paper's output
    writeFileSync(join(run, 'review_report.json'), '{"scores":');
    r = await svc(['paper', run, '--stage', 'merge_reviews'], { cwd: dir, env: env() });
    expect(r.stderr).toContain('merge_reviews: failed (its inputs use {{stages.review_paper.outputs.file}}, which this run does not provide)');
    expect(existsSync(join(run, 'review_merge_log.json'))).toBe(false);
    expect(existsSync(join(run, 'review_report.reviewer.json'))).toBe(false);
  }, 60_000);
});
