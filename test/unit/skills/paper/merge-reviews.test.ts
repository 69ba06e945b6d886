import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mergeReviewsTool } from '../../../../src/skills/paper/merge-reviews.ts';
import { removeDir, tempDir } from '../../../support/svc.ts';
import { callTool } from '../coding/tool-call.ts';
import { rejection } from '../../llm/helpers.ts';

let dir: string;
let env: Record<string, string>;
beforeEach(() => {
  dir = tempDir();
  env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, SVC_CHECKPOINT_DIR: dir };
});
afterEach(() => removeDir(dir));

const read = (name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8'));

/** A report in review_compiled_paper's shape, cut down. */
const REPORT = {
  rubric_id: 'neurips',
  scores: { soundness: 3, overall: 6 },
  score_dimensions: [{ name: 'overall', value: 6, scale: [1, 10] }],
  decision: 'accept',
  overall_score: 6,
  score: 6,
  summary: 'A sorting study.',
  weaknesses: 'Only one input size.',
  issues: ['The baseline is weak.'],
  recommendations: ['Use a log axis in fig:metric_bar'],
  n: 1,
};
/** vlm_review_figures' answer, as the vlm_review_figures stage keeps it. */
const VLM = {
  reviewed: true,
  score: 0.6,
  issues: ['fig:metric_bar: the y axis has no unit', 'The legend covers the bars of fig:sweep.', 'fig:metric_bar: the y axis has no unit'],
  suggestions: ['fig:metric_bar: use a log axis in fig:metric_bar', 'fig:sweep: move the legend outside'],
  model: 'scripted-vision',
  figures: ['fig:metric_bar', 'fig:sweep'],
};

const setUp = (vlm: unknown = VLM) => {
  writeFileSync(join(dir, 'review_report.json'), JSON.stringify(REPORT));
  if (vlm !== null) writeFileSync(join(dir, 'vlm_review.json'), typeof vlm === 'string' ? vlm : JSON.stringify(vlm));
};
const merge = (args: Record<string, unknown> = {}) => callTool(mergeReviewsTool, { review_report_path: 'review_report.json', vlm_review_path: 'vlm_review.json', ...args }, env);

describe('merge_reviews', () => {
  test('the figure issues and suggestions join the report tagged with their figures; scores, decision and the rest stay the reviewers\'', async () => {
    setUp();
    const log = await merge();
    const report = read('review_report.json');
    expect(report.issues).toEqual(['The baseline is weak.', '[fig:metric_bar] the y axis has no unit', '[fig:sweep] The legend covers the bars of fig:sweep.']);
    expect(report.recommendations).toEqual(['Use a log axis in fig:metric_bar', '[fig:sweep] move the legend outside']);
    expect(report.weaknesses).toBe('Only one input size.\n\nFrom the figure review:\n- [fig:metric_bar] the y axis has no unit\n- [fig:sweep] The legend covers the bars of fig:sweep.');
    for (const k of ['scores', 'score_dimensions', 'decision', 'overall_score', 'score', 'summary', 'rubric_id', 'n'] as const) expect(report[k]).toEqual(REPORT[k]);
    expect(report.vlm_figure_review).toMatchObject({ source: join(dir, 'vlm_review.json'), score: 0.6, model: 'scripted-vision', figures: ['fig:metric_bar', 'fig:sweep'] });
    expect(report.vlm_figure_review.issues[0]).toEqual({ figure: 'fig:metric_bar', text: 'the y axis has no unit' });
    expect(report._review_composition).toMatchObject({ reviewers_report: 'review_report.reviewer.json', merged: ['vlm_figure_review'], added: { issues: 2, recommendations: 1 }, duplicates_dropped: 2 });
    // the reviewers' report is kept as it was
    expect(read('review_report.reviewer.json')).toEqual(REPORT);
    expect(log).toEqual(read('review_merge_log.json'));
    expect(log).toMatchObject({
      merged: true,
      review_report: join(dir, 'review_report.json'),
      reviewers_report: join(dir, 'review_report.reviewer.json'),
      vlm_score: 0.6,
      scores_changed: false,
      added: { issues: ['[fig:metric_bar] the y axis has no unit', '[fig:sweep] The legend covers the bars of fig:sweep.'], recommendations: ['[fig:sweep] move the legend outside'] },
      duplicates_dropped: ['[fig:metric_bar] the y axis has no unit', '[fig:metric_bar] use a log axis in fig:metric_bar'],
    });
  });

  test('merging again starts from the reviewers\' report: nothing is added twice', async () => {
    setUp();
    await merge();
    const first = read('review_report.json');
    const log = await merge();
    const second = read('review_report.json');
    expect({ ...second, _review_composition: null }).toEqual({ ...first, _review_composition: null });
    expect(second.issues).toHaveLength(3);
    expect(read('review_report.reviewer.json')).toEqual(REPORT);
    expect(log.added.issues).toHaveLength(2);
  });

  test('single-figure reviews (review_figures_all) are tagged with their labels', async () => {
    setUp({ reviewed: true, score: 0.5, issues: [], suggestions: [], figures: ['fig:a', 'fig:b'], reviews: [{ label: 'fig:a', score: 0.4, issues: ['tick labels overlap'], suggestions: [] }, { label: 'fig:b', score: 0.6, issues: ['Tick labels overlap.'], suggestions: ['add error bars'] }] });
    await merge();
    const report = read('review_report.json');
    expect(report.issues).toEqual(['The baseline is weak.', '[fig:a] tick labels overlap']);
    expect(report.recommendations).toEqual(['Use a log axis in fig:metric_bar', '[fig:b] add error bars']);
  });

  test('without vlm_review.json, or with an empty one, the report is left alone and the log says why', async () => {
    for (const vlm of [null, '', '{}', { reviewed: false, reason: 'no vision model is configured', issues: [], suggestions: [], figures: ['fig:a'] }]) {
      setUp(vlm);
      const before = readFileSync(join(dir, 'review_report.json'), 'utf8');
      const log = await merge();
      expect(readFileSync(join(dir, 'review_report.json'), 'utf8')).toBe(before);
      expect(existsSync(join(dir, 'review_report.reviewer.json'))).toBe(false);
      expect(log).toMatchObject({ merged: false, scores_changed: false, added: { issues: [], recommendations: [] } });
      expect(log.reason).toEndWith(': the review report is left as the reviewers wrote it');
      expect(read('review_merge_log.json')).toEqual(log);
      removeDir(join(dir, 'vlm_review.json'));
    }
  });

  test('a missing or damaged review report is one line with the fix; nothing is written', async () => {
    let err = await rejection(merge());
    expect(err.message).toBe(`no review report at ${join(dir, 'review_report.json')}`);
    expect((err as { hint?: string }).hint).toContain('review_paper stage');
    writeFileSync(join(dir, 'review_report.json'), '{"scores": ');
    writeFileSync(join(dir, 'vlm_review.json'), JSON.stringify(VLM));
    err = await rejection(merge());
    expect(err.message).toStartWith(`the review report ${join(dir, 'review_report.json')} is not JSON: `);
    expect(err.message).not.toContain('\n');
    writeFileSync(join(dir, 'review_report.json'), '[1]');
    expect((await rejection(merge())).message).toBe(`the review report ${join(dir, 'review_report.json')} is not a review (no scores)`);
    expect(existsSync(join(dir, 'review_merge_log.json'))).toBe(false);
  });

  test('a damaged vlm_review.json is an error naming it; paths outside the checkpoint are refused', async () => {
    setUp('{"issues": [');
    expect((await rejection(merge())).message).toStartWith(`the figure review ${join(dir, 'vlm_review.json')} is not JSON: `);
    expect(read('review_report.json')).toEqual(REPORT);
    expect((await rejection(merge({ vlm_review_path: '../vlm_review.json' }))).message).toContain('vlm_review_path');
    expect((await rejection(merge({ review_report_path: '/etc/passwd' }))).message).toContain('review_report_path');
  });
});
