import { describe, expect, test } from 'bun:test';
import { InputError } from '../../../src/core/errors.ts';
import { reviewRecord } from '../../../src/paper/fewshot-record.ts';
import { bundledRubrics, type LoadedRubric } from '../../../src/paper/rubrics.ts';

const neurips = bundledRubrics().find((r) => r.id === 'neurips') as LoadedRubric;
const minimal: LoadedRubric = { id: 'tiny', source: '/x/tiny.yaml', rubric: { score_dimensions: [{ name: 'overall', scale: [1, 10] }] } };

describe('reviewRecord', () => {
  test('a review following the rubric is stored with the rubric as its source, whatever source was sent', () => {
    const review = { _source: 'someone else', soundness: 3, overall: 7.5, confidence: 4, summary: 'It does X.', decision: 'accept' };
    expect(reviewRecord(neurips, review)).toEqual({ _source: 'rubric:neurips', soundness: 3, overall: 7.5, confidence: 4, summary: 'It does X.', decision: 'accept' });
  });

  test('scale ends are inside the scale', () => {
    expect(reviewRecord(neurips, { overall: 1, soundness: 4 })).toMatchObject({ overall: 1, soundness: 4 });
  });

  test('a rubric without a decision accepts any decision text', () => {
    expect(reviewRecord(minimal, { overall: 3, decision: 'maybe' })).toEqual({ _source: 'rubric:tiny', overall: 3, decision: 'maybe' });
  });

  test.each([
    [{ overall: 11 }, 'review.overall: 11 is outside the scale [1, 10]'],
    [{ overall: 0.5 }, 'review.overall: 0.5 is outside the scale [1, 10]'],
    [{ soundness: 5, overall: 6 }, 'review.soundness: 5 is outside the scale [1, 4]'],
    [{ overall: '8' }, 'review.overall: must be a number on the scale [1, 10], got "8"'],
    [{ overall: true }, 'review.overall: must be a number on the scale [1, 10], got true'],
    [{ overall: null }, 'review.overall: must be a number on the scale [1, 10], got null'],
    [{ overall: 6, summary: 42 }, 'review.summary: must be text, got 42'],
    [{ overall: 6, summary: ['a'] }, 'review.summary: must be text, got ["a"]'],
    [{ overall: 6, decision: 'weak accept' }, "review.decision: 'weak accept' is not one of accept, reject"],
    [{ overall: 6, decision: 1 }, 'review.decision: must be text, got 1'],
    [{ overall: 6, novelty: 3 }, 'review.novelty: not a score dimension, text section or decision of rubric neurips'],
    [{ overall: 6, _private: 1 }, 'review._private: not a score dimension'],
    [{ summary: 'only text', decision: 'accept' }, 'review has no score of rubric neurips'],
    [{}, 'review has no score of rubric neurips'],
    [[1, 2], 'review must be a JSON object'],
    [null, 'review must be a JSON object'],
    ['text', 'review must be a JSON object'],
  ])('%j is refused: %s', (review, message) => {
    expect(() => reviewRecord(neurips, review)).toThrow(InputError);
    expect(() => reviewRecord(neurips, review)).toThrow(message);
  });

  test('the error for an unknown key lists the keys the rubric has', () => {
    expect(() => reviewRecord(minimal, { overall: 1, rating: 2 })).toThrow(expect.objectContaining({ message: 'review.rating: not a score dimension, text section or decision of rubric tiny', hint: 'keys of tiny: overall, decision' }));
  });
});
