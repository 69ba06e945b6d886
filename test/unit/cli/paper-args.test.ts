import { describe, expect, test } from 'bun:test';
import { paperOverrides } from '../../../src/cli/paper-args.ts';

describe("svc paper's review flags", () => {
  test('go to the review_paper stage as review_compiled_paper arguments', () => {
    expect(paperOverrides({ rubric: ' iclr ', 'fewshot-mode': 'dynamic', 'num-reviews-ensemble': '3', 'num-reflections': '0' })).toEqual({
      review_paper: { rubric_id: 'iclr', fewshot_mode: 'dynamic', num_reviews_ensemble: 3, num_reflections: 0 },
    });
    expect(paperOverrides({})).toEqual({});
  });

  test("out of the tool's ranges: one line before anything runs", () => {
    expect(() => paperOverrides({ 'num-reviews-ensemble': '0' })).toThrow("--num-reviews-ensemble must be a whole number from 1 to 20, got '0'");
    expect(() => paperOverrides({ 'num-reviews-ensemble': '21' })).toThrow("--num-reviews-ensemble must be a whole number from 1 to 20, got '21'");
    expect(() => paperOverrides({ 'num-reflections': '-1' })).toThrow("--num-reflections must be a whole number from 0 to 20, got '-1'");
    expect(() => paperOverrides({ 'num-reflections': '' })).toThrow("--num-reflections must be a whole number from 0 to 20, got ''");
    expect(() => paperOverrides({ 'fewshot-mode': 'random' })).toThrow("--fewshot-mode must be static or dynamic, got 'random'");
    expect(() => paperOverrides({ rubric: ' ' })).toThrow('--rubric is empty');
  });
});
