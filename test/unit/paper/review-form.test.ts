import { describe, expect, test } from 'bun:test';
import { chooseExamples, type ReviewExample, rubricExamples, wordOverlap } from '../../../src/paper/review-fewshot.ts';
import { decide, formBlocks, meanScores, normalizeReview, reviewCheck } from '../../../src/paper/review-form.ts';
import { bundledRubrics } from '../../../src/paper/rubrics.ts';
import { removeDir, tempDir } from '../../support/svc.ts';

const rubric = (id: string) => {
  const r = bundledRubrics().find((x) => x.id === id);
  if (!r) throw new Error(id);
  return r.rubric;
};

describe('the review form of a rubric', () => {
  test('an answer needs a number on every dimension and text in every required section; out-of-scale numbers pass the check', () => {
    const check = reviewCheck(rubric('sc'));
    expect(check('text')).toBe('the answer must be one JSON object of scores and text sections');
    const full: Record<string, unknown> = {};
    for (const d of rubric('sc').score_dimensions) full[d.name] = 99;
    for (const s of rubric('sc').text_sections ?? []) full[s.name] = ['a point', 'another'];
    expect(check(full)).toBeNull();
    const { overall: _, ...noOverall } = full;
    expect(check(noOverall)).toStartWith('every score dimension needs a number: "overall" (');
    const required = (rubric('sc').text_sections ?? []).find((s) => s.required)?.name ?? '';
    expect(check({ ...full, [required]: '' })).toBe(`these text sections need text: "${required}"`);
    // kept: clamped scores, lists as lines of text, a decision only when it is an option
    const n = normalizeReview(rubric('sc'), { ...full, decision: 'maybe' });
    expect(n.text[required]).toBe('- a point\n- another');
    expect(n.reviewer_decision).toBeNull();
    expect(n.clamped.length).toBe(rubric('sc').score_dimensions.length);
  });

  test('decisions: binary at the threshold; categorical in bands below it', () => {
    expect(decide(rubric('neurips'), { overall: 6 })).toBe('accept');
    expect(decide(rubric('neurips'), { overall: 5.99 })).toBe('reject');
    expect(decide(rubric('neurips'), { overall: null })).toBeNull();
    // acl: overall [1, 5], threshold 4: [2.5, 4) findings, [1, 2.5) reject
    expect([4, 3, 2.5, 2.4, 1].map((overall) => decide(rubric('acl'), { overall }))).toEqual(['main_conference', 'findings', 'findings', 'reject', 'reject']);
    for (const r of bundledRubrics()) {
      const dim = r.rubric.score_dimensions.find((d) => d.name === r.rubric.decision?.threshold_dimension);
      expect(decide(r.rubric, { [dim?.name ?? '']: dim?.scale[1] ?? 0 })).toBe(r.rubric.decision?.options[0] ?? null);
      expect(decide(r.rubric, { [dim?.name ?? '']: dim?.scale[0] ?? 0 })).toBe(r.rubric.decision?.options.at(-1) ?? null);
    }
  });

  test('the mean of an ensemble, to two decimals; the prompt lists the form', () => {
    const r = rubric('workshop');
    const a = normalizeReview(r, { overall: 1 });
    const b = normalizeReview(r, { overall: 2 });
    const c = normalizeReview(r, { overall: 2 });
    expect(meanScores(r, [a, b, c]).overall).toBe(1.67);
    const form = formBlocks(rubric('neurips'));
    expect(form.dimensions.split('\n')[0]).toStartWith('- originality [1, 4]: ');
    expect(form.options).toBe('accept, reject');
    expect(JSON.parse(form.answer_format)).toMatchObject({ overall: '<number from 1 to 10>', summary: '<text>', decision: '<accept | reject>' });
  });
});

describe('few-shot examples', () => {
  const ex = (id: string, excerpt: string): ReviewExample => ({ id, source: 'project', record: {}, excerpt });
  test('static: the first by id; dynamic: the most words in common with the paper, ties by id', () => {
    const all = [ex('b', 'graph neural networks message passing'), ex('a', 'protein folding'), ex('c', 'shell sort gap sequence comparisons')];
    expect(chooseExamples(all, 2, 'static', 'shell sort').map((e) => e.id)).toEqual(['a', 'b']);
    expect(chooseExamples(all, 1, 'dynamic', 'Shell sort with a geometric gap sequence').map((e) => e.id)).toEqual(['c']);
    expect(chooseExamples(all, 3, 'dynamic', 'nothing shared').map((e) => e.id)).toEqual(['a', 'b', 'c']);
    expect(wordOverlap('sort sort gap', 'gap sort')).toBe(1);
    expect(wordOverlap('', 'gap')).toBe(0);
  });

  test("a rubric's examples: the project's, then the published corpus's", () => {
    const root = tempDir();
    try {
      expect(rubricExamples(root, 'neurips').examples.map((e) => [e.id, e.source])).toEqual([
        ['attention_is_all_you_need', 'svc corpus'],
        ['denoising_diffusion', 'svc corpus'],
        ['few_shot_learners', 'svc corpus'],
      ]);
      expect(rubricExamples(root, 'sc').examples).toEqual([]);
    } finally {
      removeDir(root);
    }
  });
});
