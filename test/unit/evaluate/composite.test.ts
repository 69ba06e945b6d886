import { describe, expect, test } from 'bun:test';
import { AXIS_FLOOR, compositeScore } from '../../../src/evaluate/composite.ts';

const five = [0.9, 0.5, 0.4, 0.8, 1.0].map((score) => ({ score, weight: 0.2 }));

describe('compositeScore', () => {
  test('harmonic_mean is Σw/Σ(w/x)', () => {
    expect(compositeScore('harmonic_mean', five)).toBeCloseTo(0.6360424028268552, 12);
  });

  test('arithmetic_mean is Σwx/Σw', () => {
    expect(compositeScore('arithmetic_mean', five)).toBeCloseTo(0.72, 12);
  });

  test('weighted_min is the lowest participating axis', () => {
    expect(compositeScore('weighted_min', five)).toBe(0.4);
    // a zero-weight axis does not take part, however low
    expect(compositeScore('weighted_min', [...five, { score: 0.1, weight: 0 }])).toBe(0.4);
  });

  test('geometric_mean is exp(Σw ln x / Σw)', () => {
    expect(compositeScore('geometric_mean', five)).toBeCloseTo(0.6786916380543178, 12);
    expect(compositeScore('geometric_mean', [{ score: 0.25, weight: 3 }, { score: 1, weight: 1 }])).toBeCloseTo(0.25 ** 0.75, 12);
  });

  test('unequal weights', () => {
    const axes = [{ score: 0.5, weight: 3 }, { score: 1, weight: 1 }];
    expect(compositeScore('harmonic_mean', axes)).toBeCloseTo(4 / 7, 12);
    expect(compositeScore('arithmetic_mean', axes)).toBeCloseTo(0.625, 12);
  });

  test('scores are clamped to [0, 1] with a 0.01 floor', () => {
    expect(AXIS_FLOOR).toBe(0.01);
    expect(compositeScore('harmonic_mean', [{ score: 0, weight: 1 }, { score: 1, weight: 1 }])).toBeCloseTo(2 / 101, 12);
    expect(compositeScore('weighted_min', [{ score: -3, weight: 1 }, { score: 2, weight: 1 }])).toBe(0.01);
    expect(compositeScore('arithmetic_mean', [{ score: 1.5, weight: 1 }])).toBe(1);
    expect(compositeScore('geometric_mean', [{ score: 0, weight: 1 }])).toBeCloseTo(0.01, 12);
  });

  test('no participating axis (no weight, no finite score) scores 0', () => {
    expect(compositeScore('harmonic_mean', [])).toBe(0);
    expect(compositeScore('arithmetic_mean', [{ score: 0.9, weight: 0 }])).toBe(0);
    expect(compositeScore('weighted_min', [{ score: Number.NaN, weight: 1 }])).toBe(0);
  });
});
