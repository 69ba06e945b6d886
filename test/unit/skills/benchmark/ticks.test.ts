import { describe, expect, test } from 'bun:test';
import { niceTicks, tickLabels, withMargin } from '../../../../src/skills/benchmark/chart/ticks.ts';

describe('niceTicks', () => {
  test.each([
    [0, 100, [0, 20, 40, 60, 80, 100]],
    [-3.5, 87.1, [0, 20, 40, 60, 80]],
    [0.1, 0.7, [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]],
    [0, 0.3, [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3]],
    [1013, 1019, [1013, 1014, 1015, 1016, 1017, 1018, 1019]],
    [0, 3e-5, [0, 5e-6, 1e-5, 1.5e-5, 2e-5, 2.5e-5, 3e-5]],
  ])('%p..%p: steps of 1, 2 or 5 × 10^k inside the range', (lo, hi, expected) => {
    const t = niceTicks(lo, hi);
    expect(t.values).toEqual(expected);
    expect([t.min, t.max]).toEqual([lo, hi]);
  });

  test('a single value gets room around it', () => {
    expect(niceTicks(5, 5)).toMatchObject({ min: 4.5, max: 5.5, values: [4.6, 4.8, 5, 5.2, 5.4] });
    expect(niceTicks(0, 0)).toMatchObject({ min: -1, max: 1, values: [-1, -0.5, 0, 0.5, 1] });
  });

  test('withMargin widens both ends by 5% of the span', () => {
    expect(withMargin(0, 100)).toEqual([-5, 105]);
  });
});

describe('tickLabels', () => {
  test('as many decimals as the step needs, no binary noise', () => {
    expect(tickLabels(niceTicks(0, 0.3))).toEqual(['0.00', '0.05', '0.10', '0.15', '0.20', '0.25', '0.30']);
    expect(tickLabels(niceTicks(0, 100))).toEqual(['0', '20', '40', '60', '80', '100']);
  });

  test('exponent form for large values and tiny steps, across the whole axis', () => {
    expect(tickLabels(niceTicks(0, 4e6))).toEqual(['0', '1e6', '2e6', '3e6', '4e6']);
    expect(tickLabels(niceTicks(-1e7, 1e7))).toEqual(['-1e7', '-5e6', '0', '5e6', '1e7']);
    expect(tickLabels(niceTicks(0, 3e-5))).toEqual(['0', '5e-6', '1e-5', '1.5e-5', '2e-5', '2.5e-5', '3e-5']);
    expect(tickLabels(niceTicks(1.5e6, 2.5e6))).toEqual(['1.6e6', '1.8e6', '2e6', '2.2e6', '2.4e6']);
  });
});
